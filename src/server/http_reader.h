// HTTP/1.x request framing over bytes, by Boost.Beast's request parser: the server feeds each
// connection's received bytes to a RequestReader, which frames one request at a time (head,
// then a Content-Length or chunked body) and hands over Beast's parsed head as an HttpRequest
// (the target percent-decoded and UTF-8 checked; nothing parsed twice). Framing is Beast's
// alone (strict CRLF line ends, one body length), so the same bytes give the same requests
// however they are split into segments: no request smuggling or desync. Pure code over bytes:
// unit-tested and fuzzed (fuzz/fuzz_http_head.cc) without sockets.
#ifndef GPUADVISOR_SERVER_HTTP_READER_H_
#define GPUADVISOR_SERVER_HTTP_READER_H_

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpuadvisor::server {

struct HttpRequest {
  std::string method;                                      // "GET", "POST", ... (upper-case token)
  std::string path;                                        // percent-decoded, without the query
  std::vector<std::pair<std::string, std::string>> query;  // decoded, in order, repeats kept
  std::vector<std::pair<std::string, std::string>> headers;
  bool keep_alive = true;  // HTTP/1.1 unless "Connection: close"; 1.0 only with keep-alive
  bool expect_continue = false;
  std::string body;

  // The first header named `name` (case-insensitive), or "".
  std::string_view Header(std::string_view name) const;
  bool HasHeader(std::string_view name) const;
};

struct HeadLimits {
  size_t max_header_bytes = 16 << 10;  // all header lines: name + value + 4 each
  int max_headers = 64;
  size_t max_target_bytes = 8 << 10;  // the request target; longer is 414
};

// An HTTP error from the head: status, the error code and message of the JSON body, the field.
struct HeadError {
  int status = 0;  // 0 = none
  std::string code, message, field;
  explicit operator bool() const { return status != 0; }
};

struct ReaderLimits {
  HeadLimits head;                  // header bytes and count (431), target length (414)
  size_t max_body_bytes = 1 << 20;  // a larger body (declared or chunked) is 413
  // Chunked bodies: the chunk extensions of one request, all chunks together (400), and the
  // trailer (431). Beast buffers a chunk's size line and the trailer whole before parsing them,
  // and its header limit covers the head only: without these, one request held 397 MB.
  size_t max_chunk_extension_bytes = 4 << 10;
  size_t max_trailer_bytes = 4 << 10;
};

// Frames one request after another on one connection. Not thread-safe (one connection's).
class RequestReader {
 public:
  enum class State {
    kNeedMore,  // everything given was consumed; feed more bytes
    kHead,      // the head is complete and accepted: request() has all but the body
    kDone,      // the whole request is here: request() is complete
    kError,     // error() says what to answer; the connection must be closed after it
  };

  explicit RequestReader(const ReaderLimits& limits);
  ~RequestReader();
  RequestReader(const RequestReader&) = delete;
  RequestReader& operator=(const RequestReader&) = delete;

  // Parses from `bytes`; returns the new state and sets *consumed to the bytes used (the rest
  // belongs to later calls: the request's remainder or the next pipelined request). kHead is
  // returned once per request with a body, as soon as the head is complete, before any body
  // byte is taken; a request without a body goes straight to kDone.
  State Feed(std::string_view bytes, size_t* consumed);
  // Starts the next request on this connection. REQUIRES: state kDone.
  void Next();

  // True once any byte of the current request has been taken (its head has begun).
  bool started() const { return started_; }
  bool head_done() const;
  // The current request once its head is done; with kDone its body too.
  const HttpRequest& request() const { return req_; }
  HttpRequest& request() { return req_; }
  // Body bytes received so far for the current request.
  size_t body_bytes() const;
  const HeadError& error() const { return error_; }
  // The request target as sent (for logs), once the head is done.
  const std::string& target() const { return target_; }

 private:
  struct Parser;
  // An error when `pending`, the bytes the parser left while waiting for a chunk's size line or
  // the trailer to end, is already past what they may take.
  HeadError PendingChunkMetadata(std::string_view pending) const;
  ReaderLimits limits_;
  std::unique_ptr<Parser> parser_;
  HttpRequest req_;
  HeadError error_;
  std::string target_;
  bool started_ = false;
  bool head_reported_ = false;
  size_t head_checked_ = 0;  // bytes of the unconsumed head already checked for bare LF
};

// Converts a head Beast framed into *req: method, decoded path and query (UTF-8 checked),
// headers and their meaning (Expect). An absolute-form target ("http://host:port/path") is
// reduced to its path and its authority replaces the Host header (RFC 9112 3.2.2). 400 a
// target that is not a path (or "*" with OPTIONS), 414 target too long, 431 too many headers
// or bytes, 417 an Expect other than 100-continue, 501 a transfer coding other than chunked,
// 505 a version other than HTTP/1.0 and 1.1.
HeadError ConvertHead(std::string_view method, std::string_view target, int version,
                      std::vector<std::pair<std::string, std::string>> headers,
                      const HeadLimits& limits, HttpRequest* req);

}  // namespace gpuadvisor::server

#endif  // GPUADVISOR_SERVER_HTTP_READER_H_
