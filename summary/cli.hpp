#pragma once
// The sync_summary command line: parses the arguments, runs one command, writes its output.
// Exit status: 0 done (compare: no regression), 1 compare found a regression, 2 bad input or
// bad usage (one message on err, never a crash), 3 salvage was given a complete run.

#include <ostream>
#include <string>
#include <vector>

namespace sync_summary {

// args: the arguments after the program name.
int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace sync_summary
