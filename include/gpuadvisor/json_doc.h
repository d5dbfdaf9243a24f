// A JSON document built by the library: a command's answer (doc/formats.md, "Command JSON"), a
// report, an error object. Front ends take its text; the public API does not expose the JSON
// library the documents are built with.
#ifndef GPUADVISOR_JSON_DOC_H_
#define GPUADVISOR_JSON_DOC_H_

#include <memory>
#include <string>

namespace gpuadvisor {

class JsonDoc {
 public:
  JsonDoc();  // JSON null

  // The document as JSON text: one line when indent < 0, otherwise pretty-printed with that many
  // spaces. Never throws: a byte that is not UTF-8 (a hostname or file name from input) becomes
  // U+FFFD. Keys keep the order the library wrote them in.
  std::string Text(int indent = -1) const;

  struct Rep;  // internal (src/io/json_doc_rep.h)
  explicit JsonDoc(std::shared_ptr<const Rep> rep);
  const Rep& rep() const { return *rep_; }

 private:
  std::shared_ptr<const Rep> rep_;  // immutable, so copies share it
};

}  // namespace gpuadvisor

#endif  // GPUADVISOR_JSON_DOC_H_
