#include <string>

#include "render.hpp"

namespace sync_summary {
namespace {

// A cell may not contain '|' or a line break in a GitHub table.
std::string cell(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|')
      out += "\\|";
    else if (c == '\n' || c == '\r')
      out += ' ';
    else
      out += c;
  }
  return out;
}

void table(const Table& t, std::ostream& out) {
  if (!t.title.empty()) out << "**" << t.title << "**\n\n";
  const auto row = [&](const std::vector<std::string>& cells) {
    out << "|";
    for (std::size_t c = 0; c < t.header.size(); ++c)
      out << " " << (c < cells.size() ? cell(cells[c]) : "") << " |";
    out << "\n";
  };
  row(t.header);
  out << "|";
  for (std::size_t c = 0; c < t.header.size(); ++c) {
    const bool left = c < t.align.size() && t.align[c] == Align::left;
    out << (left ? ":---|" : "---:|");
  }
  out << "\n";
  for (const auto& r : t.rows) row(r);
  if (!t.notes.empty()) {
    out << "\n";
    for (const auto& n : t.notes) out << n << "  \n";
  }
}

}  // namespace

void render_markdown(const Document& doc, std::ostream& out) {
  bool first = true;
  for (const Block& b : doc.blocks) {
    if (!first) out << "\n";
    first = false;
    switch (b.kind) {
      case Block::Kind::heading:
        out << std::string(static_cast<std::size_t>(b.level), '#') << " " << b.lines[0] << "\n";
        break;
      case Block::Kind::bullets:
        for (const auto& l : b.lines) out << "- " << l << "\n";
        break;
      case Block::Kind::text:
        for (const auto& l : b.lines) out << l << "  \n";
        break;
      case Block::Kind::table:
        table(b.table, out);
        break;
    }
  }
}

}  // namespace sync_summary
