#include <string>

#include "render.hpp"

namespace sync_summary {
namespace {

// RFC 4180: quote a field holding a comma, a quote or a line break; double the quotes.
std::string field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

void row(const std::vector<std::string>& cells, std::ostream& out) {
  for (std::size_t c = 0; c < cells.size(); ++c) out << (c > 0 ? "," : "") << field(cells[c]);
  out << "\n";
}

}  // namespace

void render_csv(const Document& doc, std::ostream& out) {
  row(doc.tidy.header, out);
  for (const auto& r : doc.tidy.rows) row(r, out);
}

}  // namespace sync_summary
