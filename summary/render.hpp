#pragma once
// Writes a Document as aligned console text, GitHub markdown, or CSV (the tidy table).

#include <ostream>

#include "document.hpp"

namespace sync_summary {

void render_console(const Document& doc, std::ostream& out);
void render_markdown(const Document& doc, std::ostream& out);
void render_csv(const Document& doc, std::ostream& out);
void render(const Document& doc, Format format, std::ostream& out);

}  // namespace sync_summary
