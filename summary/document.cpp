#include "document.hpp"

#include <utility>

namespace sync_summary {

void Document::heading(std::string text, int level) {
  Block b;
  b.kind = Block::Kind::heading;
  b.level = level;
  b.lines.push_back(std::move(text));
  blocks.push_back(std::move(b));
}

void Document::bullets(std::vector<std::string> lines) {
  Block b;
  b.kind = Block::Kind::bullets;
  b.lines = std::move(lines);
  blocks.push_back(std::move(b));
}

void Document::text(std::vector<std::string> lines) {
  Block b;
  b.kind = Block::Kind::text;
  b.lines = std::move(lines);
  blocks.push_back(std::move(b));
}

void Document::table(Table t) {
  Block b;
  b.kind = Block::Kind::table;
  b.table = std::move(t);
  blocks.push_back(std::move(b));
}

}  // namespace sync_summary
