// A JSON document built by the library: a command's answer (doc/formats.md, "Command JSON"), a
// report, an error object. Front ends take its text, or walk its values (JsonDoc::Walk) to build
// their own objects without parsing text again; the public API does not expose the JSON library
// the documents are built with.
#ifndef GPUADVISOR_APP_JSON_DOC_H_
#define GPUADVISOR_APP_JSON_DOC_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace gpuadvisor {

// Receives a document's values from JsonDoc::Walk, depth first: a scalar is one call; an array is
// StartArray(size), its elements, EndArray(); an object is StartObject(size), then Key(k) and the
// value for each member, EndObject(). The string_views live for the call only.
class JsonSink {
 public:
  virtual ~JsonSink() = default;
  virtual void Null() = 0;
  virtual void Bool(bool v) = 0;
  // An integer: one that fits both types may come as either.
  virtual void Int(int64_t v) = 0;
  virtual void Uint(uint64_t v) = 0;
  // A floating-point number (1.0 too: Text() writes it "1.0"); always finite.
  virtual void Double(double v) = 0;
  // `s` may hold bytes that are not UTF-8 (text from input): Text() writes each invalid sequence
  // as U+FFFD, and a sink that decodes strings should do the same (Python's "replace" does).
  virtual void String(std::string_view s) = 0;
  virtual void StartArray(size_t size) = 0;
  virtual void EndArray() = 0;
  virtual void StartObject(size_t size) = 0;
  virtual void Key(std::string_view key) = 0;  // as String: may hold bytes that are not UTF-8
  virtual void EndObject() = 0;
};

class JsonDoc {
 public:
  JsonDoc();  // JSON null

  // The document as JSON text: one line when indent < 0, otherwise pretty-printed with that many
  // spaces. Never throws: a byte that is not UTF-8 (a hostname or file name from input) becomes
  // U+FFFD. Keys keep the order the library wrote them in.
  std::string Text(int indent = -1) const;

  // The document's values to `sink`, keys in the order Text() writes them: the values Text()'s
  // text would parse to, without the text. A number that is not finite comes as Null (Text()
  // writes null). Exceptions the sink throws pass through; the document is unchanged.
  void Walk(JsonSink& sink) const;

  struct Rep;  // internal (src/app/json_doc_rep.h)
  explicit JsonDoc(std::shared_ptr<const Rep> rep);
  const Rep& rep() const { return *rep_; }

 private:
  std::shared_ptr<const Rep> rep_;  // immutable, so copies share it
};

}  // namespace gpuadvisor

#endif  // GPUADVISOR_APP_JSON_DOC_H_
