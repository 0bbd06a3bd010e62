#pragma once
// What a command produces, before it is written in a format: headings, bullet lists and tables,
// plus one tidy table (one row per measurement) that the csv format writes instead.

#include <string>
#include <vector>

namespace sync_summary {

enum class Align { left, right };

struct Table {
  std::string title;
  std::vector<std::string> header;
  std::vector<Align> align;  // one per column; missing ones are right-aligned
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> notes;  // lines under the table
};

struct Block {
  enum class Kind { heading, bullets, text, table } kind = Kind::text;
  int level = 1;                   // heading level
  std::vector<std::string> lines;  // heading: lines[0]; bullets and text: one per line
  Table table;
};

struct Document {
  std::vector<Block> blocks;
  Table tidy;  // the csv format's content

  void heading(std::string text, int level = 1);
  void bullets(std::vector<std::string> lines);
  void text(std::vector<std::string> lines);
  void table(Table t);
};

enum class Format { console, markdown, csv };

}  // namespace sync_summary
