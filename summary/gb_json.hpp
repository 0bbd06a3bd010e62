#pragma once
// Reads the JSON that Google Benchmark (1.7.1 and 1.8.3) writes with --benchmark_out_format=json
// into a Run. Streaming (SAX) parse: a 100,000-benchmark file is read without building a DOM.

#include <cstddef>
#include <string>
#include <string_view>

#include "run.hpp"

namespace sync_summary {

// Parses text; source names the input in messages. Throws InputError on malformed JSON, JSON
// that is not Google Benchmark's, or a run with no benchmarks; TruncatedInput (an InputError)
// when the JSON is cut short, its message pointing to `sync_summary salvage`.
Run parse_run(std::string_view text, const std::string& source);

// A file's bytes, read only: a regular file is memory-mapped (a 90 MB run costs no 90 MB of
// fresh memory), "-" (standard input) and pipes are read into memory, and so is any file when
// copy is set (one that the caller may overwrite while it reads it). Throws InputError for a
// file that cannot be opened or is a directory.
class InputText {
 public:
  explicit InputText(const std::string& path, bool copy = false);
  ~InputText();
  InputText(const InputText&) = delete;
  InputText& operator=(const InputText&) = delete;

  const std::string& path() const { return path_; }
  std::string_view text() const { return text_; }
  // A mapped file's pages leave memory (they are read from the file again when next touched),
  // so that a pass over a large file does not keep it resident; nothing for text in memory.
  void release_pages() const;

 private:
  std::string path_;
  std::string owned_;
  void* map_ = nullptr;
  std::size_t map_size_ = 0;
  std::string_view text_;
};

// parse_run of a file's text; a blank file is refused as "empty file".
Run parse_input(const InputText& input);

// Reads the file ("-" reads standard input; regular files are memory-mapped) and parses it.
Run load_run(const std::string& path);

}  // namespace sync_summary
