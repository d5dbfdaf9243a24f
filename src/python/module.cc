// gpuadvisor._core: the compiled part of the Python module (python/gpuadvisor/ is the Pythonic
// API around it). It exposes the library, not the CLI: requests are built with the same parsers
// as the CLI flags (app/requests.h) and results are the CLI's JSON objects
// (app/views.h), converted to Python dicts. Library errors raise the exception class of
// their StatusCode with the library's message. The GIL is released while the library works (catalog
// loading, estimate, recommend, the CLI entry); the library is thread-safe for concurrent calls on
// a shared catalog.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "app/json_doc.h"
#include "app/requests.h"
#include "app/successors.h"
#include "app/views.h"
#include "cli/common.h"
#include "gpuadvisor/bill.h"
#include "gpuadvisor/commit_plan.h"
#include "gpuadvisor/estimate.h"
#include "gpuadvisor/i18n.h"
#include "gpuadvisor/prometheus_source.h"
#include "gpuadvisor/recommend.h"
#include "util/dates.h"
#include "util/text.h"

namespace py = pybind11;

namespace gpuadvisor::python {
namespace {

// The exception classes, created once when the module is imported (then only read).
struct Exceptions {
  py::object error, invalid_argument, not_found, parse_error, io_error, unsupported, no_result;
};
Exceptions* g_exceptions = nullptr;  // NOLINT: set once in PYBIND11_MODULE, never freed

py::object ClassFor(StatusCode code) {
  const Exceptions& e = *g_exceptions;
  switch (code) {
    case StatusCode::kInvalidArgument:
      return e.invalid_argument;
    case StatusCode::kNotFound:
      return e.not_found;
    case StatusCode::kParseError:
      return e.parse_error;
    case StatusCode::kIOError:
      return e.io_error;
    case StatusCode::kUnsupported:
      return e.unsupported;
    case StatusCode::kNoResult:
      return e.no_result;
    default:
      return e.error;
  }
}

[[noreturn]] void Raise(const Status& status) {
  py::object cls = ClassFor(status.code());
  // Python spells options with underscores: "min-gpus" -> "min_gpus", in the field and where
  // the message names it first ("min-gpus: expected ..." -> "min_gpus: expected ...").
  std::string field = status.field();
  std::replace(field.begin(), field.end(), '-', '_');
  std::string message = status.message();
  if (cli::LeadingName(status) == status.field()) message.replace(0, field.size(), field);
  py::object exc = cls(message);
  exc.attr("code") = StatusCodeName(status.code());
  exc.attr("field") = field.empty() ? py::object(py::none()) : py::object(py::str(field));
  PyErr_SetObject(cls.ptr(), exc.ptr());
  throw py::error_already_set();
}

template <typename T>
T Take(Result<T> r) {
  if (!r.ok()) Raise(r.status());
  return std::move(r).value();
}

void Check(const Status& st) {
  if (!st.ok()) Raise(st);
}

// Text from outside (file names, hostnames) may not be UTF-8; py::str would raise
// UnicodeDecodeError from the middle of a result, so invalid bytes become U+FFFD as in DumpJson
// (JsonDoc::Text()): Python's "replace" and nlohmann's replace each maximal invalid subpart.
py::str ToPyStr(std::string_view s) {
  PyObject* o = PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "replace");
  if (o == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(o);
}

// Builds the Python objects of a JsonDoc as it is walked (dicts keep the views' key order): the
// values json.loads(doc.Text()) would give, without the text. Lists are sized up front.
class PyBuilder : public JsonSink {
 public:
  void Null() override { Put(py::none()); }
  void Bool(bool v) override { Put(py::bool_(v)); }
  void Int(int64_t v) override { Put(py::int_(v)); }
  void Uint(uint64_t v) override { Put(py::int_(v)); }
  void Double(double v) override { Put(py::float_(v)); }
  void String(std::string_view s) override { Put(ToPyStr(s)); }
  void StartArray(size_t size) override {
    stack_.push_back(Open{py::list(static_cast<py::ssize_t>(size)), true, py::object(), 0});
  }
  void EndArray() override { Close(); }
  void StartObject(size_t) override { stack_.push_back(Open{py::dict(), false, py::object(), 0}); }
  void Key(std::string_view key) override { stack_.back().key = ToPyStr(key); }
  void EndObject() override { Close(); }

  py::object Take() { return std::move(result_); }

 private:
  // An open list or dict; `key` is the dict key waiting for its value, `next` the list index.
  struct Open {
    py::object container;
    bool is_list;
    py::object key;
    size_t next;
  };

  void Put(py::object v) {
    if (stack_.empty()) {
      result_ = std::move(v);
      return;
    }
    Open& top = stack_.back();
    if (top.is_list) {  // PyList_SET_ITEM steals the reference
      PyList_SET_ITEM(top.container.ptr(), static_cast<Py_ssize_t>(top.next++), v.release().ptr());
    } else if (PyDict_SetItem(top.container.ptr(), top.key.ptr(), v.ptr()) != 0) {
      throw py::error_already_set();
    }
  }
  void Close() {
    py::object done = std::move(stack_.back().container);
    stack_.pop_back();
    Put(std::move(done));
  }

  std::vector<Open> stack_;
  py::object result_;
};

// A library view -> Python objects, walking its tree (no JSON text in between).
py::object ToPy(const JsonDoc& doc) {
  PyBuilder builder;
  doc.Walk(builder);
  return builder.Take();
}

// One keyword argument's value into `values`, typed: a bool or a number is handed over as it
// is (no text round trip), a string or a path as text. None is "not given".
void SetOption(OptionValues* values, const std::string& key, const py::handle& v) {
  if (v.is_none()) return;
  if (py::isinstance<py::bool_>(v)) {
    Check(values->SetBool(key, v.cast<bool>(), kPython));
  } else if (py::isinstance<py::int_>(v) || py::isinstance<py::float_>(v)) {
    Check(values->SetNumber(key, v.cast<double>(), kPython));
  } else if (py::isinstance<py::str>(v)) {
    Check(values->Set(key, v.cast<std::string>(), kPython));
  } else if (py::hasattr(v, "__fspath__")) {
    Check(values->Set(key, py::str(v.attr("__fspath__")()).cast<std::string>(), kPython));
  } else {
    Raise(Status::InvalidArgument(key +
                                  ": expected a string, number, boolean or a list of them, "
                                  "got " +
                                  std::string(py::str(py::type::of(v).attr("__name__"))))
              .WithField(CanonicalOptionKey(key)));
  }
}

// Keyword arguments as the options of `command` (options.h), checked as the CLI's flags are.
// Lists and tuples give one value per item (repeatable options).
OptionValues Options(std::string_view command, const py::dict& kwargs) {
  OptionValues values(*Take(FindCommandSpec(command)));
  for (const auto& [k, v] : kwargs) {
    const std::string key = py::str(k);
    const bool many = py::isinstance<py::list>(v) || py::isinstance<py::tuple>(v);
    for (const py::handle item :
         many ? py::reinterpret_borrow<py::iterable>(v) : py::iterable(py::make_tuple(v))) {
      SetOption(&values, key, item);
    }
  }
  return values;
}

// A command's option table (every front end's options; `front_ends` says which) for the Python
// layer's signatures and docstrings and for the tests that compare the front ends.
py::list OptionTable(const std::string& command) {
  py::list out;
  for (const OptionSpec& o : Take(FindCommandSpec(command))->options) {
    std::string name(o.name);
    std::replace(name.begin(), name.end(), '-', '_');
    py::dict d;
    d["name"] = name;
    d["type"] = OptionTypeName(o.type);
    d["unit"] = std::string(o.unit);
    d["default"] = o.default_text.empty() ? py::object(py::none())
                                          : py::object(py::str(std::string(o.default_text)));
    d["help"] = OptionHelpText(o);
    d["positional"] = o.positional;
    d["required"] = o.required;
    py::list choices;
    for (std::string_view c : o.choices) choices.append(std::string(c));
    d["choices"] = choices;
    py::list front_ends;
    for (const auto& [bit, label] :
         {std::pair{kCli, "cli"}, {kHttp, "http"}, {kPython, "python"}}) {
      if ((o.front_ends & bit) != 0) front_ends.append(label);
    }
    d["front_ends"] = front_ends;
    d["lo"] = o.lo;
    d["hi"] = o.hi;
    out.append(d);
  }
  return out;
}

std::string Render(const Table& t) { return t.Render(OutputFormat::kTable, false); }
// Text shown to people (tables with notes, warnings) as the CLI prints it: TerminalSafe, so
// hostnames and file names can neither carry escape sequences nor fail to decode as UTF-8.
std::string Shown(std::string_view text) { return TerminalSafe(text, /*keep_newlines=*/true); }
std::vector<std::string> Shown(const std::vector<std::string>& lines) {
  std::vector<std::string> out;
  out.reserve(lines.size());
  for (const std::string& l : lines) out.push_back(TerminalSafe(l));
  return out;
}

struct PyCatalog {
  std::shared_ptr<const Catalog> catalog;
  Freshness fresh;
  CatalogInUse in_use;  // chosen as the CLI does (cli::ChooseCatalog)
};

struct PyWorkload {
  Workload workload;
};

// A recommendation keeps its catalog alive (plans point into it) for the SVG and text views.
struct PyRecommendation {
  std::shared_ptr<const Catalog> catalog;
  Recommendation result;
  RecommendRequest request;
  Freshness fresh;
};

// The path and max_price_age as the CLI's --catalog and --max-price-age (OutputArgs); no path
// reads the same catalog the CLI would (the user catalog, else the embedded one).
PyCatalog OpenPyCatalog(const std::string& path, const std::string& max_price_age) {
  OptionValues values(*Take(FindCommandSpec("output")));
  Check(values.Set("catalog", path, kPython));
  Check(values.Set("max-price-age", max_price_age, kPython));
  OutputArgs args;
  Check(SetFromOptions(values, &args));
  PyCatalog out;
  out.fresh = MakeFreshness(args.max_price_age_days, cli::TodayFromEnvironment());
  Result<std::shared_ptr<const Catalog>> c = Status::InvalidArgument("not loaded");
  {
    py::gil_scoped_release release;
    out.in_use = cli::ChooseCatalog(args.catalog);
    c = OpenCatalog(out.in_use.path);
  }
  out.catalog = Take(std::move(c));
  return out;
}

py::tuple Instances(const PyCatalog& pc, const py::dict& args) {
  InstanceQuery q = Take(MakeInstanceQuery(Options("instances", args)));
  std::vector<InstanceRow> rows = Take(QueryInstances(*pc.catalog, q));
  std::vector<std::string> warnings = StaleWarnings(rows, pc.fresh);
  if (rows.empty()) warnings.emplace_back(NoMatchWarning(*pc.catalog, q));
  for (std::string& line : RetiredNotes(*pc.catalog, rows)) warnings.push_back(std::move(line));
  return py::make_tuple(ToPy(InstancesJson(rows, pc.fresh)), warnings,
                        Render(InstancesTable(rows)));
}

py::object Show(const PyCatalog& pc, const py::dict& args) {
  return ToPy(Take(ShowTypeJson(*pc.catalog, Options("show", args), pc.fresh)));
}

py::tuple Gpus(const PyCatalog& pc, const py::dict& args) {
  const OptionValues values = Options("gpus", args);
  GpusArgs a;
  Check(SetFromOptions(values, &a));
  const std::vector<GpuSummary> gpus = ListGpus(*pc.catalog, a.include_retired);
  return py::make_tuple(ToPy(GpusJson(gpus)), Render(GpusTable(gpus)));
}

// A workload keyword argument, typed as SetOption's: a bool or a number is bound as it is (no
// text round trip), written out only for messages as the package writes it (_text: an integral
// float as an integer, "5"); a string (the package's text of anything else) as text.
WorkloadValue WorkloadValueOf(const py::handle& v) {
  WorkloadValue out;
  if (py::isinstance<py::bool_>(v)) {
    out.boolean = v.cast<bool>();
    out.text = *out.boolean ? "true" : "false";
  } else if (py::isinstance<py::int_>(v) || py::isinstance<py::float_>(v)) {
    const double d = PyFloat_AsDouble(v.ptr());
    if (d == -1.0 && PyErr_Occurred() != nullptr) {
      PyErr_Clear();  // an int beyond a double: read as text, as before
    } else {
      out.number = d;
    }
    const bool integral = std::isfinite(d) && d == std::trunc(d) && std::abs(d) < 1e16;
    out.text = py::isinstance<py::float_>(v) && integral
                   ? std::to_string(static_cast<long long>(d))
                   : std::string(py::isinstance<py::float_>(v) ? py::repr(v) : py::str(v));
  } else {
    out.text = py::str(v);
  }
  return out;
}

PyWorkload MakeWorkload(const std::string& file, const py::dict& values) {
  WorkloadArgs a;
  a.file = file;
  for (const auto& [key, value] : values) {
    if (!value.is_none()) a.typed[py::str(key)] = WorkloadValueOf(value);
  }
  return PyWorkload{Take(BuildWorkload(a))};
}

py::tuple EstimateOn(const PyCatalog& pc, const PyWorkload& w, const py::dict& args) {
  const HardwareRequest req = Take(MakeHardwareRequest(Options("estimate", args)));
  Result<Hardware> hw = Status::InvalidArgument("not resolved");
  Result<Estimate> e = Status::InvalidArgument("not estimated");
  {
    py::gil_scoped_release release;
    hw = ResolveHardware(*pc.catalog, req);
    if (hw.ok()) e = EstimateWorkload(w.workload, *hw);
  }
  const Hardware h = Take(std::move(hw));
  const Estimate est = Take(std::move(e));
  const std::vector<std::string> warnings =
      EstimateWarnings(*pc.catalog, h, est, pc.fresh, req.region);
  return py::make_tuple(ToPy(EstimateReportJson(h, est, *pc.catalog, pc.fresh, warnings)), warnings,
                        Shown(Render(EstimateTable(est, false)) + AssumptionsText(est)));
}

PyRecommendation RecommendOn(const PyCatalog& pc, const PyWorkload& w, const py::dict& args) {
  PyRecommendation out;
  out.catalog = pc.catalog;
  out.fresh = pc.fresh;
  const OptionValues values = Options("recommend", args);
  out.request = Take(MakeRecommendRequest(values));
  // The account scan as the CLI reads it: the file named, none, else GPUADVISOR_ACCOUNT or the
  // user's scan.
  RecommendArgs a;
  Check(SetFromOptions(values, &a));
  const std::optional<AccountScan> scan = Take(cli::LoadAccountScan(a.account));
  if (scan) out.request.account = &*scan;
  Result<Recommendation> r = Status::InvalidArgument("not run");
  {
    py::gil_scoped_release release;
    r = Recommend(*pc.catalog, w.workload, out.request);
  }
  out.request.account = nullptr;  // the scan ends here; the plans keep copies of what it said
  out.result = Take(std::move(r));
  return out;
}

py::tuple PricingOn(const PyCatalog& pc, const py::dict& args) {
  const PricingResult r = Take(PriceType(*pc.catalog, Options("pricing", args)));
  return py::make_tuple(ToPy(PricingJson(r, pc.fresh)), PricingWarnings(r, pc.fresh),
                        Render(PricingTable(r)));
}

// `plan`: None, or a dict from recommend(...).json() (whole, or one of its plans).
py::object LaunchOn(const PyCatalog& pc, const py::object& plan, const py::dict& args) {
  const OptionValues values = Options("launch", args);
  std::optional<std::string> plan_json;
  if (!plan.is_none()) {
    if (!py::isinstance<py::dict>(plan)) {
      Raise(Status::InvalidArgument("plan: expected a dict from recommend(...).json()")
                .WithField("plan"));
    }
    plan_json = py::str(py::module_::import("json").attr("dumps")(plan));
  }
  const LaunchArgs a = Take(MakeLaunchRequest(values, plan_json ? &*plan_json : nullptr, "plan"));
  // The account scan as the CLI's launch reads it (GPUADVISOR_ACCOUNT, else the user's).
  const std::optional<AccountScan> scan = Take(cli::LoadAccountScan(""));
  const LaunchPlan lp =
      Take(PlanLaunchWarned(*pc.catalog, a.request, scan.has_value() ? &*scan : nullptr));
  Check(CheckLaunchFormat(lp, a.format));
  return ToPy(LaunchAnswerJson(lp, RenderLaunch(lp, a.format)));
}

py::tuple IdleOn(const PyCatalog& pc, const std::vector<std::string>& paths, const py::dict& args) {
  const OptionValues values = Options("idle", args);
  IdleArgs typed;  // the one rule checked before any file or server is read
  Check(SetFromOptions(values, &typed));
  if (paths.empty() == typed.prometheus.url.empty()) {
    Raise(Status::InvalidArgument(
              "paths: expected telemetry files or prometheus=URL (one of the two)")
              .WithField("paths"));
  }
  Result<IdleSetup> setup = Status::InvalidArgument("not parsed");
  Result<IdleReport> r = Status::InvalidArgument("not run");
  std::optional<PrometheusSourceInfo> prom;
  {
    py::gil_scoped_release release;  // reads the inventory and the files, or queries the server
    setup = ParseIdleArgs(*pc.catalog, values);
    const std::optional<PrometheusOptions> query =
        setup.ok() ? setup->prometheus : std::optional<PrometheusOptions>();
    if (query) {
      IdleAnalyzer analyzer(pc.catalog, setup->options);
      Result<PrometheusSourceInfo> info = AddPrometheus(*query, &analyzer);
      r = info.ok() ? analyzer.Finish(setup->inventory) : Result<IdleReport>(info.status());
      if (info.ok()) prom = *info;
    } else if (setup.ok()) {
      r = AnalyzeIdle(pc.catalog, paths, setup->telemetry, setup->options, setup->inventory);
    }
  }
  Take(std::move(setup));
  const IdleReport report = Take(std::move(r));
  return py::make_tuple(ToPy(IdleReportJson(report, pc.fresh, prom ? &*prom : nullptr)),
                        Shown(report.warnings),
                        Shown(Render(IdleTable(report)) + IdleNotes(report)));
}

py::tuple CommitmentsOn(const PyCatalog& pc, const std::vector<std::string>& paths,
                        const py::dict& args) {
  const OptionValues values = Options("commitments", args);
  const CommitmentsArgs a = Take(ParseCommitmentsArgs(values));
  if (paths.empty()) {
    Raise(
        Status::InvalidArgument("paths: expected Cost and Usage Report files").WithField("paths"));
  }
  CommitOptions options = a.options;
  if (std::optional<int64_t> today = ParseIsoDate(pc.fresh.today)) options.today_day = *today;
  Result<BillUsage> bill = Status::InvalidArgument("not read");
  Result<CommitReport> r = Status::InvalidArgument("not run");
  {
    py::gil_scoped_release release;  // reads the files
    BillReader reader(*pc.catalog);
    Status st;
    for (const std::string& p : paths) {
      st = reader.AddFile(p);
      if (!st.ok()) break;
    }
    bill = st.ok() ? reader.Finish() : Result<BillUsage>(st);
    if (bill.ok()) r = AdviseCommitments(*bill, *pc.catalog, options);
  }
  if (!bill.ok()) Check(bill.status());  // the report points into `bill`: keep it
  const CommitReport report = Take(std::move(r));
  return py::make_tuple(ToPy(CommitmentsJson(report, pc.fresh, "file")), py::list(),
                        Shown(Render(CommitmentsTable(report)) + CommitmentsNotes(report)));
}

int Main(const std::vector<std::string>& argv) {
  std::vector<std::string> args = argv;
  std::vector<char*> ptrs;
  ptrs.reserve(args.size() + 1);
  for (std::string& s : args) ptrs.push_back(s.data());
  ptrs.push_back(nullptr);
  int rc = 0;
  {
    py::gil_scoped_release release;
    rc = cli::RunCli(static_cast<int>(args.size()), ptrs.data());
    std::cout.flush();
    std::fflush(stdout);
    std::fflush(stderr);
  }
  return rc;
}

// The language of a call's text (tables, warnings, why lines, error messages): `lang` ("en",
// "zh", "zh_CN.UTF-8", ...), else the environment's as the CLI reads it when --lang is not given
// (cli::LanguageFromEnvironment: LANGUAGE, LC_ALL, LC_MESSAGES, LANG), read at each call.
Language CallLanguage(const std::string& lang) {
  if (lang.empty()) return cli::LanguageFromEnvironment();
  std::optional<Language> l = ParseLanguage(lang);
  if (!l) {
    Raise(Status::InvalidArgument("lang: expected en or zh, got \"" + lang.substr(0, 40) + "\"")
              .WithField("lang"));
  }
  return *l;
}

// `with _core.LanguageScope(lang):` runs the calls inside in that language (LanguageScope on
// this thread, which the library's work runs on even with the GIL released).
struct PyLanguageScope {
  Language language = Language::kEnglish;
  std::optional<LanguageScope> scope;
};

py::object NewException(py::module_& m, const char* name, py::handle bases, const char* doc) {
  const std::string qualified = std::string("gpuadvisor.") + name;
  PyObject* cls = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases.ptr(), nullptr);
  if (cls == nullptr) throw py::error_already_set();
  auto out = py::reinterpret_steal<py::object>(cls);
  m.attr(name) = out;
  return out;
}

}  // namespace

void Init(py::module_& m) {
  m.doc() = "gpuadvisor's compiled core; use the `gpuadvisor` package, not this module.";
  auto* e = new Exceptions();  // NOLINT: lives as long as the interpreter
  e->error = NewException(m, "Error", PyExc_Exception,
                          "Base class of every gpuadvisor error; `code` and `field` attributes.");
  auto with = [&](PyObject* base) { return py::make_tuple(e->error, py::handle(base)); };
  e->invalid_argument = NewException(m, "InvalidArgument", with(PyExc_ValueError),
                                     "A value, option or field is wrong (`field` names it).");
  e->not_found = NewException(m, "NotFound", with(PyExc_LookupError),
                              "A named instance type, GPU, model or region does not exist.");
  e->parse_error = NewException(m, "ParseError", with(PyExc_ValueError),
                                "An input file is malformed (the message names file:line).");
  e->io_error =
      NewException(m, "IoError", with(PyExc_OSError), "A file could not be read or written.");
  e->unsupported = NewException(m, "Unsupported", e->error,
                                "A valid request the hardware or tool cannot answer.");
  e->no_result = NewException(m, "NoResult", e->error,
                              "Nothing matches (e.g. the type is not sold in the region).");
  g_exceptions = e;

  py::class_<PyCatalog>(m, "Catalog")
      .def(py::init(&OpenPyCatalog), py::arg("path"), py::arg("max_price_age"))
      .def("instances", &Instances, py::arg("args"))
      .def("show", &Show, py::arg("args"))
      .def("gpus", &Gpus, py::arg("args"))
      .def("info",
           [](const PyCatalog& pc) {
             return ToPy(CatalogInfoJson(*pc.catalog, pc.fresh, pc.in_use));
           })
      .def("estimate", &EstimateOn, py::arg("workload"), py::arg("args"))
      .def("recommend", &RecommendOn, py::arg("workload"), py::arg("args"))
      .def("pricing", &PricingOn, py::arg("args"))
      .def("launch", &LaunchOn, py::arg("plan"), py::arg("args"))
      .def("idle", &IdleOn, py::arg("paths"), py::arg("args"))
      .def("commitments", &CommitmentsOn, py::arg("paths"), py::arg("args"))
      .def_property_readonly("generated_at",
                             [](const PyCatalog& pc) { return pc.catalog->generated_at; })
      .def_property_readonly("max_price_age",
                             [](const PyCatalog& pc) { return pc.fresh.max_price_age_days; });

  py::class_<PyWorkload>(m, "Workload")
      .def(py::init(&MakeWorkload), py::arg("file"), py::arg("values"))
      .def_property_readonly("task",
                             [](const PyWorkload& w) { return TaskKindName(w.workload.task); })
      .def_property_readonly("model_name",
                             [](const PyWorkload& w) { return w.workload.model_name; })
      .def_property_readonly("params", [](const PyWorkload& w) {
        const ModelParams p = ComputeModelParams(w.workload.model);
        return p.total;
      });

  py::class_<PyRecommendation>(m, "Recommendation")
      .def("json",
           [](const PyRecommendation& r) { return ToPy(RecommendJson(r.result, r.request)); })
      .def("warnings",
           [](const PyRecommendation& r) { return RecommendWarnings(r.result, r.fresh); })
      .def("table",
           [](const PyRecommendation& r) {
             // As the CLI: no empty table when the filters left no instance type.
             const bool emptied = !r.result.filters.emptied_by.empty();
             return Shown((emptied ? "" : Render(RecommendTable(r.result))) +
                          RecommendDetails(r.result, r.request.explain));
           })
      .def("svg", [](const PyRecommendation& r) { return RecommendSvg(r.result); });

  m.def("main", &Main, py::arg("argv"));
  m.def("workload_fields", [] { return WorkloadFieldNames(); });
  m.def("model_presets", [] { return ModelPresetNames(); });
  m.def("models", [] { return py::make_tuple(ToPy(ModelsJson()), Render(ModelsTable())); });
  m.def("sort_fields", [] { return InstanceSortFields(); });
  // `account show --json`: the scan at `path` ("" = GPUADVISOR_ACCOUNT, else the user's), as text.
  m.def(
      "account_show",
      [](const std::string& path) {
        const std::optional<AccountScan> scan = Take(cli::LoadAccountScan(path));
        if (!scan) {
          Raise(Status::NotFound("no account scan (looked for " +
                                 (path.empty() ? cli::UserAccountPath() : path) +
                                 "); run `gpuadvisor account scan` first")
                    .WithField("account"));
        }
        return AccountScanToJson(*scan);
      },
      py::arg("path"));
  m.def("option_table", &OptionTable, py::arg("command"));
  m.def("current_language", [] { return LanguageTag(CurrentLanguage()); });
  py::class_<PyLanguageScope>(m, "LanguageScope")
      .def(py::init([](const std::string& lang) {
             auto s = std::make_unique<PyLanguageScope>();
             s->language = CallLanguage(lang);
             return s;
           }),
           py::arg("lang"))
      .def_property_readonly("tag",
                             [](const PyLanguageScope& s) { return LanguageTag(s.language); })
      .def("__enter__",
           [](PyLanguageScope& s) -> PyLanguageScope& {
             s.scope.emplace(s.language);
             return s;
           })
      .def("__exit__", [](PyLanguageScope& s, const py::args&) {
        s.scope.reset();
        return false;
      });
}

}  // namespace gpuadvisor::python

PYBIND11_MODULE(_core, m) { gpuadvisor::python::Init(m); }
