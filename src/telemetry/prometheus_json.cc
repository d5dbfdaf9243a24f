// SAX reading of the Prometheus API's answers (see prometheus_json.h).
#include "telemetry/prometheus_json.h"

#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>

#include <charconv>
#include <cmath>
#include <limits>

namespace gpuadvisor {
namespace {

// What the value being read is, from where it sits.
enum class Frame {
  kTop,       // the answer object
  kSkip,      // a member we do not read (warnings, stats, ...)
  kDataList,  // data of /api/v1/series: a list of label sets
  kLabels,    // a label set: {name: value}
  kMatrix,    // data of query_range: {resultType, result}
  kResult,    // data.result: a list of series
  kSeries,    // {metric, values}
  kValues,    // [[t, "v"], ...]
  kPoint,     // [t, "v"]
};

class Handler : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, Handler> {
 public:
  Handler(PromData expected, const PromDataSink& sink, PromAnswer* answer)
      : expected_(expected), sink_(sink), answer_(answer) {}

  bool StartObject() { return Enter(true); }
  bool StartArray() { return Enter(false); }
  bool EndObject(rapidjson::SizeType) { return Leave(); }
  bool EndArray(rapidjson::SizeType) { return Leave(); }
  bool Key(const char* s, rapidjson::SizeType n, bool) {
    key_.assign(s, n);
    return true;
  }
  bool String(const char* s, rapidjson::SizeType n, bool) {
    return Scalar(std::string_view(s, n), false);
  }
  bool RawNumber(const char* s, rapidjson::SizeType n, bool) {
    return Scalar(std::string_view(s, n), true);
  }
  bool Default() { return Scalar({}, false, /*other=*/true); }

  const std::string& error() const { return error_; }
  const Status& sink_status() const { return sink_status_; }

 private:
  bool Fail(std::string message) {
    if (error_.empty()) error_ = std::move(message);
    return false;
  }

  bool Enter(bool object) {
    if (stack_.size() >= kMaxPrometheusJsonDepth) {
      return Fail("nested deeper than " + std::to_string(kMaxPrometheusJsonDepth) + " levels");
    }
    Result<Frame> f = Child(object);
    if (!f.ok()) return Fail(f.status().message());
    if (*f == Frame::kSeries || (*f == Frame::kLabels && Parent() == Frame::kDataList)) {
      labels_.clear();
      points_.clear();
    }
    if (*f == Frame::kPoint) point_n_ = 0;
    stack_.push_back(*f);
    return true;
  }

  Frame Parent() const { return stack_.empty() ? Frame::kSkip : stack_.back(); }

  // The frame a new object / array opens, from its parent and the member name.
  Result<Frame> Child(bool object) const {
    if (stack_.empty()) {
      if (!object) return Status::ParseError("expected an object");
      return Frame::kTop;
    }
    switch (stack_.back()) {
      case Frame::kTop:
        if (key_ != "data") return Frame::kSkip;
        if (expected_ == PromData::kSeriesList) {
          if (object) return Status::ParseError("expected data to be a list");
          return Frame::kDataList;
        }
        if (!object) return Status::ParseError("expected data.result to be a matrix");
        return Frame::kMatrix;
      case Frame::kSkip:
        return Frame::kSkip;
      case Frame::kDataList:
        if (!object) return Status::ParseError("expected labels");
        return Frame::kLabels;
      case Frame::kLabels:
        return Status::ParseError("expected label values to be strings");
      case Frame::kMatrix:
        if (key_ != "result") return Frame::kSkip;
        if (object) return Status::ParseError("expected data.result to be a matrix");
        return Frame::kResult;
      case Frame::kResult:
        if (!object) return Status::ParseError("expected {metric, values} series");
        return Frame::kSeries;
      case Frame::kSeries:
        if (key_ == "metric" && object) return Frame::kLabels;
        if (key_ == "values" && !object) return Frame::kValues;
        if (key_ == "metric" || key_ == "values") {
          return Status::ParseError("expected {metric, values} series");
        }
        return Frame::kSkip;
      case Frame::kValues:
        if (object) return Status::ParseError("expected [time, \"value\"] points");
        return Frame::kPoint;
      case Frame::kPoint:
        return Status::ParseError("expected [time, \"value\"] points");
    }
    return Frame::kSkip;
  }

  bool Leave() {
    const Frame f = stack_.back();
    stack_.pop_back();
    switch (f) {
      case Frame::kLabels:
        if (Parent() != Frame::kDataList) return true;
        answer_->has_data = true;
        return Deliver(sink_.labels ? sink_.labels(labels_) : Status::OK());
      case Frame::kDataList:
      case Frame::kResult:
        answer_->has_data = true;
        return true;
      case Frame::kSeries:
        return Deliver(sink_.series ? sink_.series(labels_, points_) : Status::OK());
      case Frame::kPoint:
        if (point_n_ != 2) return Fail("expected [time, \"value\"] points");
        if (sink_.max_points != 0 && ++n_points_ > sink_.max_points) {
          return Fail("more than " + std::to_string(sink_.max_points) +
                      " values in one answer, over twice what was asked for");
        }
        points_.emplace_back(point_time_, point_value_);
        return true;
      default:
        return true;
    }
  }

  bool Deliver(Status st) {
    if (st.ok()) return true;
    sink_status_ = std::move(st);
    return false;
  }

  // A string (`number` false), a number's text (`number` true) or a null / bool (`other`).
  bool Scalar(std::string_view s, bool number, bool other = false) {
    const Frame parent = stack_.empty() ? Frame::kSkip : stack_.back();
    if (stack_.empty()) return Fail("expected an object");
    const bool text = !number && !other;
    switch (parent) {
      case Frame::kTop:
        if (text && key_ == "status") answer_->status = std::string(s);
        if (text && key_ == "error") answer_->error = std::string(s);
        if (key_ == "data")
          return Fail(expected_ == PromData::kSeriesList ? "expected data to be a list"
                                                         : "expected data.result to be a matrix");
        return true;
      case Frame::kSkip:
        return true;
      case Frame::kLabels:
        if (!text) return Fail("expected label values to be strings");
        labels_.emplace_back(key_, std::string(s));
        return true;
      case Frame::kMatrix:
        if (key_ == "result") return Fail("expected data.result to be a matrix");
        if (key_ == "resultType" && s != "matrix") {
          return Fail("expected data.result to be a matrix, got resultType \"" + std::string(s) +
                      "\"");
        }
        return true;
      case Frame::kSeries:
        if (key_ == "metric" || key_ == "values") return Fail("expected {metric, values} series");
        return true;
      case Frame::kPoint:
        return Point(s, number, text);
      case Frame::kDataList:
        return Fail("expected labels");
      case Frame::kResult:
        return Fail("expected {metric, values} series");
      case Frame::kValues:
        return Fail("expected [time, \"value\"] points");
    }
    return true;
  }

  bool Point(std::string_view s, bool number, bool text) {
    const int i = point_n_++;
    if (i == 0 && number) {
      const auto r = std::from_chars(s.data(), s.data() + s.size(), point_time_);
      if (r.ec != std::errc()) return Fail("expected [time, \"value\"] points");
      return true;
    }
    if (i == 1 && text) {
      double v = 0;
      const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
      point_value_ = r.ec == std::errc() && r.ptr == s.data() + s.size() && std::isfinite(v)
                         ? v
                         : std::numeric_limits<double>::quiet_NaN();
      return true;
    }
    return Fail("expected [time, \"value\"] points");
  }

  const PromData expected_;
  const PromDataSink& sink_;
  PromAnswer* answer_;
  std::vector<Frame> stack_;
  std::string key_;
  PromLabels labels_;
  PromPoints points_;
  int point_n_ = 0;
  uint64_t n_points_ = 0;  // in the whole answer
  double point_time_ = 0, point_value_ = 0;
  std::string error_;
  Status sink_status_;
};

}  // namespace

Status ParsePrometheusJson(std::string_view body, PromData expected, const PromDataSink& sink,
                           const std::string& where, PromAnswer* answer) {
  *answer = PromAnswer{};
  Handler handler(expected, sink, answer);
  rapidjson::MemoryStream stream(body.data(), body.size());
  rapidjson::Reader reader;
  // Iterative: no recursion per nesting level; numbers as text, read with from_chars.
  const rapidjson::ParseResult r = reader.Parse < rapidjson::kParseIterativeFlag |
                                   rapidjson::kParseNumbersAsStringsFlag > (stream, handler);
  if (!handler.sink_status().ok()) return handler.sink_status();
  if (r.IsError()) {
    const std::string why =
        handler.error().empty() ? rapidjson::GetParseError_En(r.Code()) : handler.error();
    return Status::ParseError(where + ": byte " + std::to_string(r.Offset()) + ": " + why);
  }
  return Status::OK();
}

}  // namespace gpuadvisor
