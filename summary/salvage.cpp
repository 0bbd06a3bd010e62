#include "salvage.hpp"

#include <fstream>

#include "benchmarks.hpp"
#include "errors.hpp"
#include "gb_json.hpp"
#include "json_layout.hpp"

namespace sync_summary {

Salvaged salvage_text(std::string_view text, const std::string& source) {
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
    throw InputError(source + ": empty file: nothing to salvage");
  // Read as every command reads it: salvage only a text whose sole fault is that it stops.
  bool complete = false;
  try {
    parse_run(text, source);
    complete = true;
  } catch (const TruncatedInput&) {
  } catch (const InputError& e) {
    throw InputError(std::string(e.what()) + " (not a run cut short: nothing to salvage)");
  }
  if (complete) throw CompleteRun("nothing to salvage: " + source + " is a complete run");
  const Layout layout = scan_layout(text);
  if (layout.top_closed)  // the parser says it stops early; its brackets say it ended: not salvaged
    throw InputError(source +
                     ": its JSON ends before the text does (not a run cut short: nothing "
                     "to salvage)");
  if (!layout.has_context)
    throw InputError(source +
                     ": no complete \"context\" object: not Google Benchmark JSON, or cut short "
                     "before its first benchmark (nothing to salvage)");
  if (layout.entries.empty())
    throw InputError(source +
                     ": no complete benchmark to salvage (cut short before the first "
                     "one ended)");
  // The rows kept: all of them when the array ended (the text stops after it), else the complete
  // ones. (The context, complete, lies before them: the array, still open, is the last member.)
  const std::size_t cut = layout.benchmarks_closed ? layout.members_end : layout.entries.back().end;

  Salvaged s;
  // What Google Benchmark writes after the last row: the array's and the object's ends.
  s.text.reserve(cut + 8);
  s.text.append(text.substr(0, cut));
  s.text += layout.benchmarks_closed ? "\n}\n" : "\n  ]\n}\n";
  s.dropped_partial = layout.partial_entry;
  // The kept rows are read as every command reads a run: a salvaged file is one they accept.
  try {
    Run run = parse_run(s.text, source);
    s.kept = run.entries.size();
    s.last_name = run.entries.back().name;
    check_run(run);
  } catch (const InputError& e) {
    throw InputError(std::string(e.what()) + " (in the complete rows: nothing salvaged)");
  }
  return s;
}

Salvaged salvage_file(const std::string& in, const std::string& out) {
  Salvaged s;
  {
    const InputText input(in, /*copy=*/true);  // OUT may be IN: never mapped while written
    s = salvage_text(input.text(), in);
  }
  std::ofstream file(out, std::ios::binary);
  file << s.text;
  file.close();
  if (!file) throw InputError(out + ": cannot write file");
  return s;
}

}  // namespace sync_summary
