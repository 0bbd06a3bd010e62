// After spinning (pause or busy) or sleeping X us, how long a fixed piece of host work takes: a
// walk over a buffer (one byte a cache line) and a chain of multiplies. CPU only; run on the build
// machine (no GPU): g++ -O2 -o cpu_wait cpu_wait.cpp && ./cpu_wait pause 1024.
#include <immintrin.h>
#include <time.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
using Clock = std::chrono::steady_clock;
static double us(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::micro>(b - a).count();
}
volatile unsigned long sink;
int main(int argc, char** argv) {
  const char* how = argc > 1 ? argv[1] : "pause";
  const size_t bytes = (argc > 2 ? atoi(argv[2]) : 1024) * 1024;
  std::vector<unsigned char> buf(bytes, 1);
  std::vector<double> xs = {0, 10, 30, 100, 300, 1000, 3000};
  std::vector<std::vector<double>> walk(xs.size()), comp(xs.size());
  for (int r = 0; r < 200; ++r)
    for (size_t k = 0; k < xs.size(); ++k) {
      auto t0 = Clock::now();
      if (!strcmp(how, "sleep")) {
        timespec ts{0, (long)(xs[k] * 1000)};
        if (xs[k] > 0) nanosleep(&ts, nullptr);
      } else
        while (us(t0, Clock::now()) < xs[k]) {
          if (!strcmp(how, "pause")) _mm_pause();
        }
      auto t1 = Clock::now();
      unsigned long s = 0;
      for (size_t i = 0; i < bytes; i += 64) s += buf[i];
      auto t2 = Clock::now();
      unsigned long c = 1;
      for (int i = 0; i < 20000; ++i) c = c * 6364136223846793005UL + 1442695040888963407UL;
      auto t3 = Clock::now();
      sink = s + c;
      walk[k].push_back(us(t1, t2));
      comp[k].push_back(us(t2, t3));
    }
  for (size_t k = 0; k < xs.size(); ++k) {
    auto q = [](std::vector<double> v, double f) {
      std::sort(v.begin(), v.end());
      return v[(size_t)(f * (v.size() - 1))];
    };
    printf("%s X %6g us: walk %zu KiB med %.2f p90 %.2f | compute med %.2f p90 %.2f\n", how, xs[k],
           bytes / 1024, q(walk[k], .5), q(walk[k], .9), q(comp[k], .5), q(comp[k], .9));
  }
}
