#pragma once
// The --help texts of sync_summary and its commands.

#include <string_view>

namespace sync_summary {

// The help of a command ("report", "dtypes", "compare"), or the overview for any other name.
std::string_view help_text(std::string_view command);

}  // namespace sync_summary
