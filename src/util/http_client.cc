// The one outbound HTTP client over libcurl (see http_client.h).
#include "util/http_client.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <mutex>

#include "util/curl_api.h"
#include "util/text.h"

namespace gpuadvisor {
namespace {

using Clock = std::chrono::steady_clock;

// The loaded libcurl (util/curl_api.h: opened and initialised once per process, thread-safely,
// on the first request). Called only where a handle exists, so it is loaded.
const CurlApi& Api() { return **Curl(); }

CURL* NewHandle() {
  const Result<const CurlApi*>& api = Curl();
  return api.ok() ? (*api)->easy_init() : nullptr;
}

std::string SecondsText(double s) { return FormatFixed(s, std::floor(s) == s ? 0 : 1); }

// Milliseconds for libcurl: at least 1 (0 would mean "no limit"), at most ~30 years.
long Ms(double s) { return static_cast<long>(std::llround(std::clamp(s, 0.001, 1e9) * 1000)); }

// One transfer's state, shared with libcurl's callbacks.
struct Transfer {
  const HttpRequest* req = nullptr;
  CURL* curl = nullptr;
  std::string body;
  int64_t received = 0;                                      // body bytes, streamed or kept
  std::vector<std::pair<std::string, std::string>> headers;  // the latest answer's
  bool too_large = false;
  bool cancelled = false;
  Clock::time_point next_ask{};  // `cancelled` is asked at most every 100 ms
};

bool AskCancelled(Transfer* t) {
  if (!t->req->cancelled || Clock::now() < t->next_ask) return false;
  t->next_ask = Clock::now() + std::chrono::milliseconds(100);
  t->cancelled = t->req->cancelled();
  return t->cancelled;
}

// Returning less than `n` ends the transfer (CURLE_WRITE_ERROR): the ceiling is checked on the
// decoded bytes, before they are kept.
// The status of the answer being received (known once its headers are in).
long StatusNow(CURL* c) {
  long status = 0;
  Api().easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
  return status;
}

size_t OnData(char* data, size_t size, size_t count, void* user) {
  auto* t = static_cast<Transfer*>(user);
  const size_t n = size * count;
  if (static_cast<uint64_t>(t->received) + n > t->req->max_response_bytes) {
    t->too_large = true;
    return 0;
  }
  if (AskCancelled(t)) return 0;
  curl_off_t announced = -1;
  if (t->received == 0 || t->req->on_body) {
    Api().easy_getinfo(t->curl, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &announced);
  }
  t->received += static_cast<int64_t>(n);
  if (t->req->on_body) {
    const long status = StatusNow(t->curl);
    if (status >= 200 && status < 300) {
      if (t->req->on_body(std::string_view(data, n), announced > 0 ? announced : -1)) return n;
      t->cancelled = true;
      return 0;
    }
    // An error page: kept for the message, the rest dropped.
    constexpr size_t kErrorBodyBytes = size_t{64} * 1024;
    t->body.append(data, std::min(n, kErrorBodyBytes - std::min(kErrorBodyBytes, t->body.size())));
    return n;
  }
  if (t->body.empty()) {  // once, at the announced size: no doubling copies of a large body
    if (announced > 0 && static_cast<uint64_t>(announced) <= t->req->max_response_bytes) {
      t->body.reserve(static_cast<size_t>(announced));
    }
  }
  t->body.append(data, n);
  return n;
}

// Header lines of every answer libcurl reads (a "100 Continue" first, then the final one): a
// status line starts a new set.
size_t OnHeader(char* data, size_t size, size_t count, void* user) {
  auto* t = static_cast<Transfer*>(user);
  const size_t n = size * count;
  const std::string_view line(data, n);
  if (line.starts_with("HTTP/")) {
    t->headers.clear();
    return n;
  }
  const size_t colon = line.find(':');
  if (colon == std::string_view::npos || t->headers.size() >= 200) return n;
  t->headers.emplace_back(ToLower(Trim(line.substr(0, colon))),
                          std::string(Trim(line.substr(colon + 1))));
  return n;
}

// Called while waiting too (about once a second when nothing moves, more often otherwise).
int OnProgress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  return AskCancelled(static_cast<Transfer*>(user)) ? 1 : 0;
}

// `name` in lower case.
bool IsHeader(std::string_view line, std::string_view name) {
  const size_t colon = line.find(':');
  return colon != std::string_view::npos && ToLower(Trim(line.substr(0, colon))) == name;
}

// The request's header lines for libcurl (freed by the caller).
curl_slist* HeaderList(const HttpRequest& req) {
  curl_slist* list = nullptr;
  bool content_type = false;
  for (const std::string& h : req.headers) {
    if (IsHeader(h, "host") || IsHeader(h, "content-length") || IsHeader(h, "transfer-encoding") ||
        IsHeader(h, "expect")) {
      continue;  // framing and routing are libcurl's
    }
    content_type = content_type || IsHeader(h, "content-type");
    list = Api().slist_append(list, h.c_str());
  }
  // No "Expect: 100-continue" for large bodies: libcurl would wait a second for a "100".
  list = Api().slist_append(list, "Expect:");
  if (!content_type) list = Api().slist_append(list, "Content-Type:");
  return list;
}

// No proxy, whatever http_proxy, https_proxy and all_proxy say: the caller's URL checks (and
// the metadata service's link-local address) hold only for a direct connection. A request that
// opts in names its proxy itself (read by a front end), so libcurl's own reading of the
// environment never decides.
void SetProxy(CURL* c, const HttpRequest& req) {
  if (req.proxy.empty()) {
    Api().easy_setopt(c, CURLOPT_PROXY, "");
    Api().easy_setopt(c, CURLOPT_NOPROXY, "*");
    return;
  }
  Api().easy_setopt(c, CURLOPT_PROXY, req.proxy.c_str());
  Api().easy_setopt(c, CURLOPT_NOPROXY, req.no_proxy.c_str());
}

void SetPolicy(CURL* c, const HttpRequest& req, Transfer* t, char* errbuf) {
  Api().easy_setopt(c, CURLOPT_URL, req.url.c_str());
#if LIBCURL_VERSION_NUM >= 0x075500  // 7.85
  Api().easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
  Api().easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
#else
  Api().easy_setopt(c, CURLOPT_PROTOCOLS, static_cast<long>(CURLPROTO_HTTP | CURLPROTO_HTTPS));
  Api().easy_setopt(c, CURLOPT_REDIR_PROTOCOLS,
                    static_cast<long>(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
  Api().easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
  Api().easy_setopt(c, CURLOPT_MAXREDIRS, 0L);
  SetProxy(c, req);
  Api().easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  Api().easy_setopt(c, CURLOPT_HTTP_VERSION, static_cast<long>(CURL_HTTP_VERSION_1_1));
  Api().easy_setopt(c, CURLOPT_USERAGENT, "gpuadvisor");
  const double connect_s =
      req.connect_timeout_s > 0 ? std::min(req.connect_timeout_s, req.timeout_s) : req.timeout_s;
  Api().easy_setopt(c, CURLOPT_TIMEOUT_MS, Ms(req.timeout_s));
  Api().easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, Ms(connect_s));
  Api().easy_setopt(
      c, CURLOPT_MAXFILESIZE_LARGE,
      static_cast<curl_off_t>(std::min<uint64_t>(req.max_response_bytes, uint64_t{1} << 62)));
  Api().easy_setopt(c, CURLOPT_WRITEFUNCTION, OnData);
  Api().easy_setopt(c, CURLOPT_WRITEDATA, t);
  Api().easy_setopt(c, CURLOPT_HEADERFUNCTION, OnHeader);
  Api().easy_setopt(c, CURLOPT_HEADERDATA, t);
  Api().easy_setopt(c, CURLOPT_NOPROGRESS, req.cancelled ? 0L : 1L);
  Api().easy_setopt(c, CURLOPT_XFERINFOFUNCTION, OnProgress);
  Api().easy_setopt(c, CURLOPT_XFERINFODATA, t);
  Api().easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
  if (req.decompress) Api().easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "gzip, deflate");
  if (!req.bearer_token.empty()) {
    Api().easy_setopt(c, CURLOPT_HTTPAUTH, static_cast<long>(CURLAUTH_BEARER));
    Api().easy_setopt(c, CURLOPT_XOAUTH2_BEARER, req.bearer_token.c_str());
  } else if (!req.basic_user.empty()) {
    Api().easy_setopt(c, CURLOPT_HTTPAUTH, static_cast<long>(CURLAUTH_BASIC));
    Api().easy_setopt(c, CURLOPT_USERNAME, req.basic_user.c_str());
    Api().easy_setopt(c, CURLOPT_PASSWORD, req.basic_password.c_str());
  }
  if (req.method == "GET") {
    Api().easy_setopt(c, CURLOPT_HTTPGET, 1L);
    return;
  }
  Api().easy_setopt(c, CURLOPT_POST, 1L);
  Api().easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(req.body.size()));
  Api().easy_setopt(c, CURLOPT_POSTFIELDS, req.body.c_str());
  if (req.method == "PUT") Api().easy_setopt(c, CURLOPT_CUSTOMREQUEST, "PUT");
}

// Why a connection could not be made, from the socket's errno.
std::string ConnectCause(long os_errno) {
  switch (os_errno) {
    case ECONNREFUSED:
      return "connection refused";
    case ENETUNREACH:
      return "network unreachable";
    case EHOSTUNREACH:
      return "host unreachable";
    case ETIMEDOUT:
      return "connection timed out";
    case 0:
      return "could not connect";
    default:
      return std::string("could not connect (") + std::strerror(static_cast<int>(os_errno)) + ")";
  }
}

// The failed transfer's cause in plain words, and its kind.
std::string CauseOf(CURLcode rc, CURL* c, const Transfer& t, const char* errbuf,
                    HttpFailure* kind) {
  const HttpRequest& req = *t.req;
  long os_errno = 0;
  Api().easy_getinfo(c, CURLINFO_OS_ERRNO, &os_errno);
  if (t.too_large || rc == CURLE_FILESIZE_EXCEEDED) {
    *kind = HttpFailure::kTooLarge;
    return "answer larger than " + std::to_string(req.max_response_bytes) + " bytes";
  }
  if (t.cancelled || rc == CURLE_ABORTED_BY_CALLBACK) {
    *kind = HttpFailure::kCancelled;
    return "stopped: cancelled";
  }
  switch (rc) {
    case CURLE_OPERATION_TIMEDOUT: {
      long sent = 0;  // request bytes sent: 0 while still connecting
      Api().easy_getinfo(c, CURLINFO_REQUEST_SIZE, &sent);
      const bool whole = req.connect_timeout_s <= 0 || req.connect_timeout_s >= req.timeout_s;
      if (sent > 0 || whole) {
        *kind = HttpFailure::kTimeout;
        return (sent > 0 ? "no complete answer within " : "no connection within ") +
               SecondsText(req.timeout_s) + " s";
      }
      *kind = HttpFailure::kConnect;
      return "no connection within " + SecondsText(req.connect_timeout_s) + " s";
    }
    case CURLE_COULDNT_RESOLVE_HOST:
      *kind = HttpFailure::kResolve;
      return "could not resolve host";
    case CURLE_COULDNT_CONNECT:
      *kind = HttpFailure::kConnect;
      return ConnectCause(os_errno);
    default:
      break;
  }
  *kind = HttpFailure::kOther;
  switch (rc) {
    case CURLE_GOT_NOTHING:
      return "the server closed the connection without answering";
    case CURLE_PARTIAL_FILE:
      return "the connection closed before the whole answer arrived";
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
      return os_errno == ECONNRESET ? "connection reset by the server"
                                    : "connection lost while exchanging the request";
    case CURLE_BAD_CONTENT_ENCODING:
      return "the answer's compressed body is corrupt";
    case CURLE_WEIRD_SERVER_REPLY:
      return "not an HTTP answer";
    case CURLE_PEER_FAILED_VERIFICATION:
      return "TLS: the server's certificate is not trusted (" + TerminalSafe(errbuf) + ")";
    default:
      break;
  }
  std::string cause = Api().easy_strerror(rc);
  if (errbuf[0] != '\0') cause += " (" + TerminalSafe(errbuf) + ")";
  return cause;
}

}  // namespace

HttpClient::HttpClient() : curl_(NewHandle()) {}

HttpClient::~HttpClient() {
  if (curl_ != nullptr) Api().easy_cleanup(static_cast<CURL*>(curl_));
}

Result<HttpResponse> HttpClient::Send(const HttpRequest& req, HttpFailure* failure) {
  HttpFailure ignored = HttpFailure::kNone;
  HttpFailure* kind = failure != nullptr ? failure : &ignored;
  *kind = HttpFailure::kNone;
  const std::string what = req.what.empty() ? req.url : req.what;
  if (req.method != "GET" && req.method != "PUT" && req.method != "POST") {
    return Status::InvalidArgument(what + ": method " + TerminalSafe(req.method) +
                                   " not supported (GET, PUT or POST)");
  }
  auto* c = static_cast<CURL*>(curl_);
  if (c == nullptr) {
    *kind = HttpFailure::kOther;
    const Result<const CurlApi*>& api = Curl();
    return Status::IOError(
        what + ": " + (api.ok() ? "libcurl could not be initialised" : api.status().message()));
  }
  Api().easy_reset(c);  // keeps the connection cache
  Transfer t;
  t.req = &req;
  t.curl = c;
  char errbuf[CURL_ERROR_SIZE] = {};
  SetPolicy(c, req, &t, errbuf);
  curl_slist* headers = HeaderList(req);
  Api().easy_setopt(c, CURLOPT_HTTPHEADER, headers);
  const CURLcode rc = Api().easy_perform(c);
  Api().easy_setopt(c, CURLOPT_HTTPHEADER, nullptr);
  Api().slist_free_all(headers);
  if (rc != CURLE_OK) return Status::IOError(what + ": " + CauseOf(rc, c, t, errbuf, kind));
  long status = 0;
  Api().easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
  if (status >= 300 && status < 400 && status != 304) {
    *kind = HttpFailure::kRedirect;
    return Status::IOError(what + ": redirect (HTTP " + std::to_string(status) + ") refused");
  }
  HttpResponse r;
  r.status = static_cast<int>(status);
  r.body = std::move(t.body);
  r.body_bytes = t.received;
  r.headers = std::move(t.headers);
  return r;
}

std::string HttpResponse::Header(std::string_view name) const {
  for (const auto& [n, v] : headers) {
    if (n == name) return v;
  }
  return "";
}

}  // namespace gpuadvisor
