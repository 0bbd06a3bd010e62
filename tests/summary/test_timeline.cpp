// `sync_summary timeline`: the SVG of fixtures/timeline_small.json (two benchmarks, three steps,
// a blocking call, a nested driver call, a kernel name with '<' and '&') and every bad input.

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <regex>
#include <set>

#include "test_util.hpp"

namespace sync_summary {
namespace {

using test::contains;

const std::string kFixture = std::string(SYNC_SUMMARY_FIXTURES) + "/timeline_small.json";
const std::string kGemm = "void gemm&lt;__half, 128&gt;(Params&amp;)";

std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (auto pos = s.find(what); pos != std::string::npos; pos = s.find(what, pos + 1)) ++n;
  return n;
}

// Draws the fixture (or `input`) with `flags`; the SVG's text.
std::string draw(const std::vector<std::string>& flags, const std::string& input = kFixture) {
  const std::string out = testing::TempDir() + "timeline_test.svg";
  std::vector<std::string> args = {"timeline", "--output=" + out};
  args.insert(args.end(), flags.begin(), flags.end());
  args.push_back(input);
  const auto r = test::run(args);
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "wrote the timeline of")) << r.err;
  return test::read_file(out);
}

struct Bar {
  std::string fill, width, title;
};

std::vector<Bar> event_bars(const std::string& svg) {
  static const std::regex bar(
      "<rect class=\"event\" [^>]*width=\"([0-9.]+)\"[^>]* fill=\"(#[0-9a-f]+)\"[^>]*><title>"
      "([^<]*)</title></rect>");
  std::vector<Bar> bars;
  for (std::sregex_iterator it(svg.begin(), svg.end(), bar), end; it != end; ++it)
    bars.push_back(Bar{(*it)[2], (*it)[1], (*it)[3]});
  return bars;
}

TEST(Timeline, SvgHasOneBarPerEventOfTheDrawnSteps) {
  const std::string svg = draw({});
  EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
  EXPECT_EQ(svg.substr(svg.size() - 7), "</svg>\n");
  // Well-formed enough: every element closed, every '&' an entity.
  EXPECT_EQ(count(svg, "<text"), count(svg, "</text>"));
  EXPECT_EQ(count(svg, "<title>"), count(svg, "</title>"));
  const std::regex self_closing_rect("<rect[^>]*/>");
  EXPECT_EQ(
      count(svg, "<rect"),
      count(svg, "</rect>") + static_cast<std::size_t>(std::distance(
                                  std::sregex_iterator(svg.begin(), svg.end(), self_closing_rect),
                                  std::sregex_iterator())));
  EXPECT_FALSE(std::regex_search(svg, std::regex("&(?!amp;|lt;|gt;|quot;)")));
  // The fixture: Async 3 x (gemm call, nested launch, kernel); DeviceSync 3 x (gemm call, sync,
  // kernel, copy) and a memset.
  EXPECT_EQ(count(svg, "<rect class=\"event\""), 22u);
  EXPECT_EQ(event_bars(svg).size(), 22u);
  // Two steps: Async's third step and DeviceSync's third step are left out (the kernel that runs
  // over the end of Async's second step is clipped, not left out).
  EXPECT_EQ(count(draw({"--steps=2"}), "<rect class=\"event\""), 15u);
  EXPECT_EQ(count(draw({"--steps", "1"}), "<rect class=\"event\""), 8u);
  EXPECT_EQ(count(draw({"--steps=100"}), "<rect class=\"event\""), 22u);  // to the window's end
  EXPECT_EQ(count(draw({"--filter=DeviceSync"}), "<rect class=\"event\""), 13u);
}

TEST(Timeline, NamesColoursAndStepLines) {
  const std::string svg = draw({});
  EXPECT_TRUE(contains(svg, ">SmallGemm/Async/fp16/cublas/n:512</text>"));
  EXPECT_TRUE(contains(svg, ">SmallGemm/DeviceSync/fp16/cublas/n:512</text>"));
  EXPECT_TRUE(contains(svg, "NVIDIA H100 80GB HBM3"));
  EXPECT_TRUE(contains(svg, "<title>" + kGemm + " (kernel, 8.000 us)</title>"));
  EXPECT_FALSE(contains(svg, "gemm<"));
  EXPECT_FALSE(contains(svg, "(Params&)"));
  std::map<std::string, std::set<std::string>> fills;  // by the name in the tooltip
  for (const Bar& b : event_bars(svg)) fills[b.title.substr(0, b.title.find(" ("))].insert(b.fill);
  EXPECT_EQ(fills["cudaDeviceSynchronize"], std::set<std::string>{"#d62728"});  // blocking: red
  EXPECT_EQ(fills["cublasGemmEx"], std::set<std::string>{"#1f77b4"});           // API: blue
  EXPECT_EQ(fills["cuLaunchKernel"], std::set<std::string>{"#9ecae1"});  // nested: light blue
  EXPECT_EQ(fills[kGemm], std::set<std::string>{"#2ca02c"});             // kernel: green
  EXPECT_EQ(fills["memcpy DtoH"], std::set<std::string>{"#ff7f0e"});     // copy: orange
  EXPECT_EQ(fills["memset"], std::set<std::string>{"#7f7f7f"});          // memset: grey
  EXPECT_EQ(count(svg, "blocking)</title>"), 3u);
  // Dashed lines at the step starts: three per benchmark.
  EXPECT_EQ(count(svg, "stroke-dasharray=\"4 3\"/>"), 6u + 1u);  // and the legend's
  EXPECT_TRUE(contains(svg, "time from the start of the first step (us)"));
}

TEST(Timeline, BlocksShareOneTimeScale) {
  // Async's steps are 10 us and DeviceSync's 20 us; both have an 8 us kernel and a 2.5 us
  // cublasGemmEx per step: the same widths in both blocks.
  std::map<std::string, std::set<std::string>> widths;
  std::size_t kernels = 0;
  const std::string svg = draw({});
  for (const Bar& b : event_bars(svg)) {
    widths[b.title.substr(0, b.title.find(" ("))].insert(b.width);
    kernels += b.title.rfind(kGemm, 0) == 0;
  }
  EXPECT_EQ(kernels, 6u);
  EXPECT_EQ(widths[kGemm], std::set<std::string>{"148.1"});          // 8 us of the 54 us in 1000 px
  EXPECT_EQ(widths["cublasGemmEx"], std::set<std::string>{"46.3"});  // 2.5 us
  // One step: DeviceSync's 20 us step is the 1000 px; Async's first kernel, [4, 12] us, is clipped
  // at its second step's start (10 us): 6 us = 300 px against DeviceSync's 8 us = 400 px.
  widths.clear();
  for (const Bar& b : event_bars(draw({"--steps=1"})))
    widths[b.title.substr(0, b.title.find(" ("))].insert(b.width);
  EXPECT_EQ(widths[kGemm], (std::set<std::string>{"300.0", "400.0"}));
  EXPECT_EQ(widths["cublasGemmEx"], std::set<std::string>{"125.0"});
}

// Writes the fixture with `from` replaced by `to` (first occurrence) into a temporary file.
std::string broken(const std::string& name, const std::string& from, const std::string& to) {
  std::string text = test::read_file(kFixture);
  const auto pos = text.find(from);
  EXPECT_NE(pos, std::string::npos) << from;
  if (pos != std::string::npos) text.replace(pos, from.size(), to);
  std::string path = testing::TempDir() + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

std::string many_benchmarks(std::size_t n) {
  std::string text = "{\"sync_bench_timeline\": 1, \"benchmarks\": [";
  for (std::size_t i = 0; i < n; ++i)
    text += std::string(i ? "," : "") + "{\"name\": \"NullKernel/P" + std::to_string(i) +
            "\", \"steps\": 1, \"step_starts_us\": [0], \"host_end_us\": 1, \"window_us\": 2, "
            "\"events\": [{\"lane\": \"gpu\", \"name\": \"k\", \"kind\": \"kernel\", "
            "\"start_us\": 0.5, \"end_us\": 1.5}]}";
  std::string path = testing::TempDir() + "timeline_" + std::to_string(n) + ".json";
  std::ofstream(path, std::ios::binary) << text << "]}\n";
  return path;
}

TEST(Timeline, BadInputExitsTwoWithOneLine) {
  const std::string out = "--output=" + testing::TempDir() + "timeline_bad.svg";
  const std::pair<std::vector<std::string>, std::string> cases[] = {
      {{"timeline", out, "does_not_exist.json"}, "does_not_exist.json: cannot open file"},
      {{"timeline", out, broken("t_malformed.json", "]}", "]")}, "malformed JSON"},
      {{"timeline", out, broken("t_empty.json", test::read_file(kFixture), " ")}, "empty file"},
      {{"timeline", out, test::data_path("gb171_run.json")}, "not a sync_bench timeline file"},
      {{"timeline", out,
        broken("t_version.json", "\"sync_bench_timeline\": 1", "\"sync_bench_timeline\": 2")},
       "timeline format 2 is not supported"},
      {{"timeline", out, broken("t_order.json", "\"end_us\": 3.0", "\"end_us\": 0.25")},
       "benchmark 0 (SmallGemm/Async/fp16/cublas/n:512): event 0 ends before it starts"},
      {{"timeline", out, broken("t_nan.json", "\"start_us\": 4.0", "\"start_us\": NaN")},
       "event 2 \"start_us\" is not a finite number"},
      {{"timeline", out, broken("t_inf.json", "\"window_us\": 54.0", "\"window_us\": -Infinity")},
       "\"window_us\" is not a finite number"},
      {{"timeline", out, broken("t_huge.json", "\"end_us\": 14.0", "\"end_us\": 1e999")},
       "number overflow"},
      {{"timeline", out, broken("t_far.json", "\"start_us\": 4.0", "\"start_us\": -1.7e308")},
       "event 2 \"start_us\" is -1.7e+308 us: not a time within a run"},
      {{"timeline", out, broken("t_text.json", "\"end_us\": 14.0", "\"end_us\": \"14\"")},
       "\"end_us\" is not a number"},
      {{"timeline", out, broken("t_lane.json", "\"lane\": \"gpu\"", "\"lane\": \"cpu\"")},
       "has lane \"cpu\""},
      {{"timeline", out, broken("t_steps.json", "\"steps\": 3", "\"steps\": 4")},
       "has 3 step_starts_us for 4 steps"},
      {{"timeline", out, broken("t_noevents.json", "\"events\"", "\"evts\"")}, "has no \"events\""},
      {{"timeline", out, "--filter=^Nothing", kFixture}, "no benchmark matches --filter"},
      {{"timeline", out, "--filter=(", kFixture}, "--filter is not a valid regular expression"},
      {{"timeline", kFixture}, "timeline: needs --output=FILE.svg"},
      {{"timeline", out}, "timeline: needs exactly one TIMELINE.json"},
      {{"timeline", out, "--steps=0", kFixture}, "--steps needs a whole number"},
      {{"timeline", out, "--steps=1.5", kFixture}, "--steps needs a whole number"},
      {{"timeline", out, "--format=csv", kFixture}, "unknown flag '--format'"},
      {{"timeline", out, many_benchmarks(13)},
       "13 benchmarks to draw, at most 12 fit in one SVG: choose some with --filter=REGEX"},
      {{"timeline", "--output=" + testing::TempDir() + "no/such/dir/t.svg", kFixture},
       "cannot write file"},
  };
  for (const auto& [args, message] : cases) {
    const auto r = test::run(args);
    EXPECT_EQ(r.rc, 2) << message;
    EXPECT_TRUE(r.out.empty()) << message;
    EXPECT_EQ(r.err.rfind("sync_summary: ", 0), 0u) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_TRUE(contains(r.err, message)) << r.err;
  }
  // Twelve are drawn; thirteen with a filter that keeps twelve too.
  EXPECT_EQ(count(draw({}, many_benchmarks(12)), "<rect class=\"event\""), 12u);
  EXPECT_EQ(count(draw({"--filter=P([0-9]|1[01])$"}, many_benchmarks(13)), "<rect class=\"event\""),
            12u);
}

TEST(Timeline, Help) {
  const auto r = test::run({"timeline", "--help"});
  EXPECT_EQ(r.rc, 0);
  EXPECT_TRUE(contains(r.out, "usage: sync_summary timeline --output=FILE.svg"));
  EXPECT_TRUE(contains(r.out, "--steps=N"));
  EXPECT_EQ(test::run({"help", "timeline"}).out, r.out);
  EXPECT_TRUE(contains(test::run({"--help"}).out, "timeline --output=F.svg TIMELINE.json"));
}

// A timeline sync_bench recorded on the H100 (results/h100/anatomy/): the null kernel's
// DeviceSync, its pageable .item() and the fp16 n=512 GEMM's Async, three steps each. One bar per
// event that starts within the drawn steps (the SVG clips the rest), and DeviceSync's blocking
// cudaDeviceSynchronize drawn in the blocking colour once a step.
TEST(Timeline, RecordedH100StepsAreDrawn) {
  const std::string svg =
      draw({"--steps=3"}, std::string(SYNC_SUMMARY_FIXTURES) + "/h100_anatomy_timeline.json");
  const std::vector<Bar> bars = event_bars(svg);
  std::map<std::string, int> device_sync_fills;
  for (const Bar& b : bars)
    if (b.title.rfind("cudaDeviceSynchronize", 0) == 0) ++device_sync_fills[b.fill];
  ASSERT_EQ(device_sync_fills.size(), 1u) << "one colour for every blocking sync";
  EXPECT_EQ(device_sync_fills.begin()->second, 3);
  EXPECT_TRUE(contains(svg, "nvjet_sm90")) << "the cuBLAS kernel is named";
  EXPECT_GT(bars.size(), 3u * 3u * 3u) << "at least three events a step in each benchmark";
}

}  // namespace
}  // namespace sync_summary
