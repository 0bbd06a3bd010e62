#include <algorithm>
#include <sstream>
#include <string>

#include "format_number.hpp"
#include "render.hpp"

namespace sync_summary {
namespace {

// Display width: UTF-8 continuation bytes take no column.
std::size_t width(const std::string& s) {
  return static_cast<std::size_t>(
      std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

void pad(std::ostream& out, const std::string& cell, std::size_t w, Align a) {
  const std::string fill(w - std::min(w, width(cell)), ' ');
  if (a == Align::right) out << fill;
  out << cell;
  if (a == Align::left) out << fill;
}

void table(const Table& t, std::ostream& out) {
  if (!t.title.empty()) out << t.title << "\n";
  std::vector<std::size_t> w(t.header.size(), 0);
  for (std::size_t c = 0; c < t.header.size(); ++c) w[c] = width(t.header[c]);
  for (const auto& row : t.rows) {
    for (std::size_t c = 0; c < row.size() && c < w.size(); ++c)
      w[c] = std::max(w[c], width(row[c]));
  }
  const auto align = [&](std::size_t c) { return c < t.align.size() ? t.align[c] : Align::right; };
  // One row: columns two blanks apart, no trailing blanks.
  const auto line = [&](const std::vector<std::string>& cells) {
    std::ostringstream text;
    for (std::size_t c = 0; c < w.size(); ++c) {
      if (c > 0) text << "  ";
      pad(text, c < cells.size() ? cells[c] : std::string(), w[c], align(c));
    }
    std::string s = text.str();
    s.erase(s.find_last_not_of(' ') + 1);
    out << s << "\n";
  };
  line(t.header);
  std::size_t total = 0;
  for (std::size_t c = 0; c < w.size(); ++c) total += w[c] + (c > 0 ? 2 : 0);
  out << std::string(total, '-') << "\n";
  for (const auto& row : t.rows) line(row);
  for (const auto& n : t.notes) out << n << "\n";
}

}  // namespace

void render_console(const Document& doc, std::ostream& out) {
  bool first = true;
  for (const Block& b : doc.blocks) {
    if (!first) out << "\n";
    first = false;
    switch (b.kind) {
      case Block::Kind::heading:
        out << b.lines[0] << "\n"
            << std::string(width(b.lines[0]), b.level == 1 ? '=' : '-') << "\n";
        break;
      case Block::Kind::bullets:
        for (const auto& l : b.lines) out << "  " << l << "\n";
        break;
      case Block::Kind::text:
        for (const auto& l : b.lines) out << l << "\n";
        break;
      case Block::Kind::table:
        table(b.table, out);
        break;
    }
  }
}

void render(const Document& doc, Format format, std::ostream& out) {
  // Names, labels, context and messages come from the input file: no control character of
  // theirs reaches the terminal (an escape sequence, a bell, a carriage return over a row).
  Document shown = doc;
  const auto clean = [](std::vector<std::string>& cells) {
    for (std::string& c : cells) c = printable(c);
  };
  const auto clean_table = [&](Table& t) {
    t.title = printable(t.title);
    clean(t.header);
    for (auto& row : t.rows) clean(row);
    clean(t.notes);
  };
  for (Block& b : shown.blocks) {
    clean(b.lines);
    clean_table(b.table);
  }
  clean_table(shown.tidy);
  switch (format) {
    case Format::console:
      render_console(shown, out);
      break;
    case Format::markdown:
      render_markdown(shown, out);
      break;
    case Format::csv:
      render_csv(shown, out);
      break;
  }
}

}  // namespace sync_summary
