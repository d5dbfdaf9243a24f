"""gpuadvisor: which AWS GPU instance, how many, where, how to pay, how much — from Python.

The same library as the ``gpuadvisor`` command line, called directly (no subprocess)::

    import gpuadvisor as ga

    job = ga.Workload(task="qlora", model="llama-2-70b", tokens="50M")
    rec = ga.recommend(job, max_instances=1)
    best = rec.plans[0]
    print(best.instance_type, best.cost_usd, best.time_hours)
    rec.to_dict()          # exactly `gpuadvisor recommend ... --json`

Every result has attributes named like the CLI's JSON fields, ``to_dict()`` giving exactly the
CLI's ``--json`` object, ``str()`` giving the CLI's table, and ``to_pandas()`` when pandas is
installed. Errors raise subclasses of :class:`Error` with the CLI's one-line message; ``field``
names the option or workload field at fault.

Option names are the CLI's flags with underscores (``--min-gpus`` is ``min_gpus=``); values may be
numbers or the CLI's text (``tokens="50M"``, ``deadline="36h"``).
"""

from __future__ import annotations

# The modules the package uses itself, under private names: ``dir(gpuadvisor)`` is its API
# (``__dir__`` below), not ``os``, ``sys`` and ``threading``.
import copy as _copy
import functools as _functools
import inspect as _inspect
import math as _math
import os as _os
import sys as _sys
import threading as _threading
from typing import Any, Callable, Dict, Iterable, List, Mapping, NamedTuple, Optional, Sequence, Union

try:
    from . import _core
except ImportError as _exc:  # a half-built package: the compiled part is missing
    raise ImportError(
        "gpuadvisor: the compiled extension gpuadvisor._core is missing or unloadable in "
        f"{_os.path.dirname(_os.path.abspath(__file__))} ({_exc}); build it with "
        "`cmake --build build --target gpuadvisor_python` or `pip install .`") from _exc
from ._core import (  # noqa: F401  (re-exported)
    Error,
    InvalidArgument,
    IoError,
    NoResult,
    NotFound,
    ParseError,
    Unsupported,
)

__all__ = [
    "Catalog", "CatalogInfo", "CommitmentReport", "Error", "Money", "HostUsage", "IdleReport", "Estimate", "GpuModel", "InstanceDetails", "InstanceRow",
    "InvalidArgument", "IoError", "NoResult", "NotFound", "ParseError", "Plan", "Pricing",
    "PurchaseOption", "Recommendation", "Record", "RecordList", "Unsupported", "Workload",
    "account_show", "catalog", "commitments", "console_main", "estimate", "idle", "launch", "main", "model_presets", "models", "ModelPreset", "pricing", "recommend", "workload_fields",
]
__version__ = "0.1.0"

Value = Union[str, int, float, bool]


def _invalid(field: str, message: str) -> InvalidArgument:
    """The module's own InvalidArgument, shaped as the library raises it."""
    err = InvalidArgument(message)
    err.code = "invalid_argument"
    err.field = field
    return err


def _check_text(field: str, value: Any) -> None:
    """Raises InvalidArgument naming ``field`` for a string the library cannot take (a lone
    surrogate has no UTF-8 form), in ``value`` or anywhere inside a list, tuple or dict of it."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise _invalid(field, f"{field}: expected text encodable as UTF-8, got a lone "
                           f"surrogate at index {exc.start} ({value[exc.start]!r})") from None
    elif isinstance(value, _os.PathLike):
        _check_text(field, _os.fspath(value))
    elif isinstance(value, (list, tuple)):
        for item in value:
            _check_text(field, item)
    elif isinstance(value, Mapping):
        for key, item in value.items():
            _check_text(field, key)
            _check_text(key if isinstance(key, str) else field, item)


def _check_args(fn: Callable[..., Any], args: Sequence[Any], kwargs: Mapping[str, Any]) -> None:
    """_check_text over every argument of a call of ``fn``, each named by its parameter."""
    try:
        bound = _inspect.signature(fn).bind_partial(*args, **kwargs)
    except TypeError:
        return  # Python's own error for a wrong call shape comes next
    for name, value in bound.arguments.items():
        param = bound.signature.parameters[name]
        if param.kind == _inspect.Parameter.VAR_KEYWORD:
            for key, item in value.items():
                _check_text(key, item)
        else:
            _check_text("path" if name == "_file" else name, value)  # Workload.from_yaml(path)


def _checked(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Checks a public function's text arguments before the compiled core sees them (pybind11
    would raise a bare TypeError for a lone surrogate)."""
    @_functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> Any:
        _check_args(fn, args, kwargs)
        return fn(*args, **kwargs)
    return call


def _workload_arg(workload: Any, field: str = "workload") -> "Workload":
    """``workload`` when it is a :class:`Workload`, else InvalidArgument naming the argument."""
    if isinstance(workload, Workload):
        return workload
    shown = repr(workload)
    if len(shown) > 60:
        shown = shown[:57] + "..."
    raise _invalid(field, f"{field}: expected a gpuadvisor.Workload, e.g. "
                   f"Workload(task=\"serve\", model=\"llama-3.1-8b\"), got "
                   f"{type(workload).__name__} {shown}")


def _text(value: Any) -> Optional[str]:
    """A Python value as the CLI would have received it; None stays None (not given)."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if not _math.isfinite(value) or value != int(value) or abs(value) >= 1e16:
            return repr(value)
        return str(int(value))
    return str(value)


# ---- options: one table per command, shared with the CLI and the HTTP API -------------------

def _python_options(command: str) -> List[Dict[str, Any]]:
    return [o for o in _core.option_table(command) if "python" in o["front_ends"]]


def _option_names(command: str) -> List[str]:
    return [o["name"] for o in _python_options(command)]


def _with_options(command: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Gives a wrapper the keyword arguments and docstring of ``command``'s option table.

    The wrapper takes ``**options`` and hands them to the library, which checks them exactly as
    the CLI checks its flags (unknown names raise InvalidArgument with "did you mean"). The
    signature shown by ``help()`` and IDEs, and the "Options" part of the docstring, are made
    here from the same table as ``gpuadvisor COMMAND --help``, so they cannot drift apart.
    """
    def wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
        sig = _inspect.signature(fn)
        fixed = [p for p in sig.parameters.values() if p.kind != _inspect.Parameter.VAR_KEYWORD]
        taken = {p.name for p in fixed}
        table = [o for o in _python_options(command)
                 if not o["positional"] and o["name"] not in taken]
        params = [p for p in fixed if p.kind != _inspect.Parameter.KEYWORD_ONLY]
        params += [_inspect.Parameter(o["name"], _inspect.Parameter.KEYWORD_ONLY, default=None)
                   for o in table]
        params += [p for p in fixed if p.kind == _inspect.Parameter.KEYWORD_ONLY]
        params.append(_inspect.Parameter("lang", _inspect.Parameter.KEYWORD_ONLY, default=None))
        if any(p.kind == _inspect.Parameter.VAR_KEYWORD for p in sig.parameters.values()):
            extra = [p for p in sig.parameters.values() if p.kind == _inspect.Parameter.VAR_KEYWORD]
            params += extra
        fn.__signature__ = sig.replace(parameters=params)  # type: ignore[attr-defined]
        lines = [f"    {o['name']} ({o['type']}): {o['help']}" for o in table] + [_LANG_DOC]
        fn.__doc__ = (fn.__doc__ or "").rstrip() + "\n\n    Options (the `gpuadvisor " + command + \
            "` flags, with underscores):\n" + "\n".join(lines) + "\n"
        return _in_language(_checked(fn))
    return wrap


_LANG_DOC = ("    lang (str): Language of the text (str(), warnings, why lines, advice, error "
             "messages): en or zh; JSON keys and values stay English (default: from LANGUAGE, "
             "LC_ALL, LC_MESSAGES, LANG, as the CLI)")


def _in_language(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` with a ``lang=`` keyword: the call runs in that language, or in the one the
    environment asks for (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), read at each call as the CLI
    reads it at start. InvalidArgument (field ``lang``) for a language without a translation."""
    @_functools.wraps(fn)
    def call(*args: Any, lang: Optional[str] = None, **kwargs: Any) -> Any:
        _check_text("lang", lang)
        if lang is not None and not isinstance(lang, str):
            raise _invalid("lang", f"lang: expected en or zh, got {type(lang).__name__}")
        with _core.LanguageScope(lang or ""):
            return fn(*args, **kwargs)
    return call


# ---- results ---------------------------------------------------------------------------------

def _pandas():
    try:
        import pandas  # noqa: WPS433  (optional dependency)
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError("to_pandas() needs pandas (apt-get install python3-pandas)") from exc
    return pandas


CURRENCIES = ("USD", "CNY")


def money_key(usd_key: str, currency: str) -> str:
    """The JSON key of an amount in ``currency``: ``wasted_usd`` -> ``wasted_cny`` (doc/formats.md)."""
    return usd_key if currency == "USD" else usd_key.replace("usd", currency.lower(), 1)


class Money(NamedTuple):
    """An amount and its ISO currency (``"USD"``, or ``"CNY"`` in AWS China).

    ``a + b`` and ``a - b`` add amounts of one currency; across currencies they raise TypeError
    (there is no rate: convert with a dated one first). ``a < b`` likewise.
    """

    amount: float
    currency: str

    def _same(self, other: Any, op: str) -> "Money":
        if not isinstance(other, Money):
            return NotImplemented
        if other.currency != self.currency:
            raise TypeError(f"cannot {op} {other.currency} and {self.currency} without a dated "
                            "exchange rate")
        return other

    def __add__(self, other: Any) -> "Money":  # type: ignore[override]
        o = self._same(other, "add")
        return o if o is NotImplemented else Money(self.amount + o.amount, self.currency)

    def __sub__(self, other: Any) -> "Money":
        o = self._same(other, "subtract")
        return o if o is NotImplemented else Money(self.amount - o.amount, self.currency)

    def __lt__(self, other: Any) -> bool:  # type: ignore[override]
        o = self._same(other, "compare")
        return o if o is NotImplemented else self.amount < o.amount

    def __gt__(self, other: Any) -> bool:  # type: ignore[override]
        o = self._same(other, "compare")
        return o if o is NotImplemented else self.amount > o.amount

    def __str__(self) -> str:
        return ("¥" if self.currency == "CNY" else "$") + f"{self.amount:,.2f}"


class Record:
    """A result object: one of the CLI's JSON objects with its fields as attributes.

    ``rec.field`` reads a field (nested objects are Records, lists of objects RecordLists);
    ``rec["field"]`` works too. ``to_dict()`` returns a deep copy of the CLI's JSON object.
    """

    _nested: Dict[str, type] = {}

    def __init__(self, data: Mapping[str, Any]):
        object.__setattr__(self, "_data", dict(data))

    def __getattr__(self, name: str) -> Any:
        data = object.__getattribute__(self, "_data")
        if name not in data:
            raise AttributeError(f"{type(self).__name__} has no field {name!r}; fields: "
                                 + ", ".join(data))
        return _wrap(data[name], type(self)._nested.get(name, Record))

    def __getitem__(self, name: str) -> Any:
        return self.__getattr__(name)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only")

    def __contains__(self, name: str) -> bool:
        return name in self._data

    def __dir__(self) -> List[str]:
        return sorted(set(super().__dir__()) | set(self._data))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Record) and self._data == other._data

    def __repr__(self) -> str:
        keys = list(self._data)[:4]
        inner = ", ".join(f"{k}={self._data[k]!r}" for k in keys)
        return f"{type(self).__name__}({inner}{', ...' if len(self._data) > 4 else ''})"

    def keys(self) -> List[str]:
        """The field names, in the CLI's JSON order."""
        return list(self._data)

    def money(self, usd_key: str) -> Optional[Money]:
        """The amount ``usd_key`` names, in the record's own currency (its ``currency`` field,
        USD without one), read from that currency's key: ``h.money("wasted_usd")`` is
        ``Money(342.5, "CNY")`` for a host in Beijing (JSON ``wasted_cny``). None when null."""
        currency = self._data.get("currency", "USD")
        value = self._data.get(money_key(usd_key, currency))
        return None if value is None else Money(float(value), currency)

    def to_dict(self) -> Dict[str, Any]:
        """The CLI's ``--json`` object for this result (a deep copy)."""
        return _copy.deepcopy(self._data)


def _wrap(value: Any, cls: type) -> Any:
    if isinstance(value, dict):
        return cls(value)
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        return RecordList([cls(v) for v in value])
    if isinstance(value, list):
        return list(value)
    return value


class RecordList(list):
    """A list of Records with ``to_dict()`` (a list of the CLI's JSON objects) and ``to_pandas()``."""

    text: str = ""
    warnings: List[str] = []

    def to_dict(self) -> List[Dict[str, Any]]:
        """The CLI's ``--json`` array."""
        return [r.to_dict() for r in self]

    def to_pandas(self):
        """A pandas DataFrame, one row per element, nested fields flattened (``accelerator.model``)."""
        return _pandas().json_normalize(self.to_dict())

    def __str__(self) -> str:
        return self.text or list.__repr__(self)


class InstanceRow(Record):
    """One row of :meth:`Catalog.instances` (``gpuadvisor instances --json``)."""

    instance_type: str
    family: str
    region: str
    accelerator: Record
    vcpus: Optional[int]  # None where unknown (an UltraServer's hosts)
    memory_gib: Optional[float]
    unit_of_purchase: str  # "instance", or "ultraserver" (one whole UltraServer, Capacity Block only)
    on_demand_usd_per_hour: Optional[float]
    spot_usd_per_hour: Optional[float]
    usd_per_gpu_hour: Optional[float]
    price_source: Optional[str]
    price_date: Optional[str]
    price_stale: Optional[bool]


class InstanceDetails(Record):
    """One instance type in full, every region (``gpuadvisor show TYPE --json``)."""

    instance_type: str


class GpuModel(Record):
    """One accelerator model with datasheet figures and cheapest offers (``gpuadvisor gpus --json``)."""

    model: str
    instance_types: List[str]
    cheapest_on_demand: Optional[Record]
    cheapest_spot: Optional[Record]


class ModelPreset(Record):
    """One built-in model architecture (``gpuadvisor models --json``)."""

    name: str
    family: str
    tasks: List[str]
    params: float
    source: str


class CatalogInfo(Record):
    """Catalog sources, snapshot dates, counts and staleness (``gpuadvisor catalog info --json``)."""

    schema: str
    generated_at: str
    counts: Record
    oldest_price_date: str
    newest_price_date: str
    prices_stale: bool
    price_figures: Record  # per figure: counts older than max_price_age, the oldest, by kind
    sources: "RecordList"


class Report(Record):
    """A command's whole answer: the JSON object, the warning lines the CLI prints to stderr
    (``warnings``) and the CLI's table (``str()``)."""

    def __init__(self, data: Mapping[str, Any], warnings: Sequence[str] = (), text: str = ""):
        super().__init__(data)
        object.__setattr__(self, "warnings", list(warnings))
        object.__setattr__(self, "text", text)

    def __str__(self) -> str:
        return self.text or repr(self)


class Estimate(Report):
    """Memory, time and cost of a workload on given hardware (``gpuadvisor estimate --json``).

    ``warnings`` holds what the CLI prints to stderr; ``str()`` is the CLI's table.
    """

    task: str
    memory: Record
    performance: Record
    parallelism: Record
    time: Record
    cost: Record
    uncertainty: Record
    assumptions: List[str]
    provenance: Record


class Plan(Record):
    """One ranked plan of a :class:`Recommendation`."""

    _nested = {"estimate": Estimate}
    rank: int
    instance_type: str
    instances: int
    gpus: int
    gpu_model: str
    region: str
    purchase: str
    parallelism: Record
    memory_per_gpu_gib: float
    fits: bool
    time_hours: float
    cost_usd: float
    usd_per_hour: float
    why: List[str]
    warnings: List[str]
    advice: List[str]
    savings: "RecordList"
    estimate: Estimate
    # What the engine doubts ({kind, detail, demotes}), the chance of getting the capacity
    # ({probability, basis}) and the other sizes and counts of the option folded under the plan.
    doubts: "RecordList"
    obtainability: Record
    sweep: "RecordList"


class Recommendation(Record):
    """Ranked plans for a workload (``gpuadvisor recommend --json``).

    ``plans`` are ranked by the objective; ``pareto`` is the front over cost, time and certainty; ``rejected``
    says why each left-out family failed. ``svg()`` is the CLI's ``--plot`` chart.
    """

    _nested = {"plans": Plan}
    objective: str
    candidates_evaluated: int
    plans: "RecordList"
    pareto: "RecordList"
    rejected: "RecordList"
    risk: str
    # "cheapest-sound", "fastest", "cheapest-any-risk": the plans a buyer compares.
    picks: "RecordList"
    # Serving with no 16-bit plan: {lever, what, tradeoff, plans} of the mildest quantization
    # that gives plans, else None.
    promoted_lever: Optional[Record]

    def __init__(self, handle: Any, lang: str = "en"):
        super().__init__(handle.json())
        object.__setattr__(self, "_handle", handle)
        object.__setattr__(self, "_lang", lang)  # str() and svg() in the call's language
        object.__setattr__(self, "warnings", handle.warnings())

    @property
    def best(self) -> Optional[Plan]:
        """The first-ranked plan, or None when no plan is feasible."""
        plans = self.plans
        return plans[0] if plans else None

    def pick(self, name: str) -> Optional[Record]:
        """The named pick ("cheapest-sound", "fastest", "cheapest-any-risk"), or None."""
        for p in self.picks:
            if p["pick"] == name:
                return p
        return None

    def svg(self) -> str:
        """Cost (log) against time (log) of the Pareto front and the ranked plans, as SVG."""
        with _core.LanguageScope(self._lang):
            return self._handle.svg()

    def __str__(self) -> str:
        with _core.LanguageScope(self._lang):
            return self._handle.table()

    def to_pandas(self):
        """The ranked plans as a DataFrame (one row per plan, estimate and lists left out)."""
        rows = []
        for plan in self.to_dict()["plans"]:
            row = {k: v for k, v in plan.items()
                   if k not in ("estimate", "why", "warnings", "advice", "savings", "parallelism")}
            for k, v in (plan.get("parallelism") or {}).items():
                row[k] = v
            rows.append(row)
        return _pandas().DataFrame(rows)


class PurchaseOption(Record):
    """One purchase option of a :class:`Pricing` result."""

    option: str
    priced: bool
    usd_per_hour: Optional[float]
    total_usd: Optional[float]
    break_even_utilization: Optional[float]


class Pricing(Report):
    """Every purchase option for a usage pattern (``gpuadvisor pricing TYPE --json``)."""

    _nested = {"options": PurchaseOption}
    instance_type: str
    region: str
    usage: Record
    options: "RecordList"
    cheapest: Optional[str]

    def to_pandas(self):
        """The options as a DataFrame (one row per purchase option)."""
        return _pandas().json_normalize(self.to_dict()["options"])


class HostUsage(Record):
    """One host of an :class:`IdleReport`: usage, idle time, waste and the recommended action."""

    host: str
    instance_type: Optional[str]
    gpus: int
    idle_hours: float
    idle_fraction: Optional[float]
    currency: str  # of every amount of the host, its region's: wasted_usd or wasted_cny
    recommendation: Record

    @property
    def wasted(self) -> Optional[Money]:
        """The money spent while idle, in the host's currency (None without a price/verdict)."""
        return self.money("wasted_usd")


class IdleReport(Report):
    """Idle GPUs, wasted dollars and rightsizing from telemetry (``gpuadvisor idle --json``)."""

    _nested = {"instances": HostUsage}
    instances: "RecordList"

    def totals(self, usd_key: str = "total_wasted_usd") -> List[Money]:
        """One total per currency of the hosts (``total_wasted_usd``, ``total_wasted_cny``),
        never one sum across them: ``report.totals()``, ``report.totals("total_savings_usd_per_month")``."""
        return [Money(float(self._data[k]), c) for c in CURRENCIES
                if (k := money_key(usd_key, c)) in self._data]

    def idle_share_by_hour(self) -> Optional[List[List[Optional[float]]]]:
        """The hour-of-week profile as 7 rows (Monday first) of 24 idle shares, in the zone
        ``report.week_profile["timezone"]`` names; None for an hour nothing was observed in, and
        None for the whole when the report has no profile."""
        w = self._data.get("week_profile")
        if not w:
            return None
        return [w["idle_share"][d * 24:(d + 1) * 24] for d in range(7)]

    def to_pandas(self):
        """The hosts as a DataFrame (one row per host, nested fields flattened)."""
        hosts = [{k: v for k, v in h.items() if k not in ("idle_periods", "gpu_usage", "alternatives")}
                 for h in self.to_dict()["instances"]]
        return _pandas().json_normalize(hosts)


# ---- catalog ---------------------------------------------------------------------------------

class CommitmentReport(Report):
    """Commitments sized from a Cost and Usage Report (``gpuadvisor commitments --json``)."""

    currency: str
    period: Record
    summary: Record
    groups: "RecordList"
    reservations: "RecordList"
    savings_plans: "RecordList"

    def to_pandas(self):
        """One row per instance type and region, the recommendation's fields flattened."""
        return _pandas().json_normalize(self.to_dict()["groups"])


class Catalog:
    """The instance catalog: the embedded one (``path=None``) or a catalog file.

    ``max_price_age`` (days) decides which prices results flag as stale, as ``--max-price-age``.
    A Catalog is immutable and may be shared between threads.
    """

    @_checked
    def __init__(self, path: Optional[Union[str, _os.PathLike]] = None, *, max_price_age: int = 90):
        self._core = _core.Catalog("" if path is None else _os.fspath(path), _text(max_price_age))
        self.path = None if path is None else _os.fspath(path)

    def __repr__(self) -> str:
        where = self.path or "embedded"
        return f"<gpuadvisor.Catalog {where}, built {self._core.generated_at}>"

    @property
    def generated_at(self) -> str:
        """Build timestamp of the catalog."""
        return self._core.generated_at

    @_with_options("instances")
    def instances(self, **options: Any) -> RecordList:
        """Filter, sort and list instance types with prices (``gpuadvisor instances``).

        ``region="all"`` gives one row per type and region; ``gpu``/``family`` take a name or a
        list (any matches); ``sort`` is ``"FIELD[:asc|desc]"`` over the JSON field names.
        Returns a RecordList of :class:`InstanceRow` (empty when nothing matches; ``warnings``
        then says so). Raises InvalidArgument / NotFound naming the option.
        """
        data, warnings, text = self._core.instances(options)
        out = RecordList(InstanceRow(r) for r in data)
        out.warnings, out.text = warnings, text
        return out

    @_with_options("show")
    def show(self, instance_type: str, **options: Any) -> InstanceDetails:
        """Everything about one instance type: specs, datasheet, prices per region
        (``gpuadvisor show TYPE``). Raises NotFound with a "did you mean" for an unknown type."""
        return InstanceDetails(self._core.show({"type": instance_type, **options}))

    @_with_options("gpus")
    def gpus(self, **options: Any) -> RecordList:
        """Accelerator models with datasheet figures and cheapest offers (``gpuadvisor gpus``)."""
        data, text = self._core.gpus(options)
        out = RecordList(GpuModel(g) for g in data)
        out.text = text
        return out

    def info(self) -> CatalogInfo:
        """Sources, snapshot dates, counts and staleness (``gpuadvisor catalog info``)."""
        return CatalogInfo(self._core.info())

    def estimate(self, workload: "Workload", **kwargs: Any) -> Estimate:
        """:func:`estimate` on this catalog."""
        return estimate(workload, catalog=self, **kwargs)

    def recommend(self, workload: "Workload", **kwargs: Any) -> Recommendation:
        """:func:`recommend` on this catalog."""
        return recommend(workload, catalog=self, **kwargs)

    def pricing(self, instance_type: str, **kwargs: Any) -> Pricing:
        """:func:`pricing` on this catalog."""
        return pricing(instance_type, catalog=self, **kwargs)

    def launch(self, instance_type: Optional[str] = None, *, plan: Any = None,
               **kwargs: Any) -> Dict[str, Any]:
        """:func:`launch` on this catalog."""
        return launch(instance_type, plan=plan, catalog=self, **kwargs)

    def idle(self, paths: Union[str, _os.PathLike, Sequence[Union[str, _os.PathLike]]],
             inventory: Union[None, str, _os.PathLike] = None, **kwargs: Any) -> "IdleReport":
        """:func:`idle` on this catalog."""
        return idle(paths, inventory, catalog=self, **kwargs)

    def commitments(self, paths: Union[str, _os.PathLike, Sequence[Union[str, _os.PathLike]]],
                    **kwargs: Any) -> "CommitmentReport":
        """:func:`commitments` on this catalog."""
        return commitments(paths, catalog=self, **kwargs)


_embedded: Optional[Catalog] = None
_embedded_lock = _threading.Lock()


def catalog(path: Optional[Union[str, _os.PathLike]] = None, *, max_price_age: int = 90) -> Catalog:
    """The embedded catalog (parsed once, shared) or the catalog file at ``path``.

    Raises IoError (unreadable), ParseError (malformed, naming the field or byte offset).
    """
    global _embedded
    if path is None and max_price_age == 90:
        with _embedded_lock:
            if _embedded is None:
                _embedded = Catalog()
            return _embedded
    return Catalog(path, max_price_age=max_price_age)


def _catalog_of(c: Optional[Catalog]) -> Catalog:
    return catalog() if c is None else c


# ---- workloads -------------------------------------------------------------------------------

def _field_name(key: str) -> str:
    return key.replace("_", "-")


class Workload:
    """A job to size: ``Workload(task=..., model=..., **fields)``.

    Fields are the CLI's workload flags with underscores (``kv_heads=8`` for ``--kv-heads 8``);
    values are numbers, booleans or the CLI's text (``tokens="1T"``, ``hours="36h"``). ``model``
    is a preset name (:func:`model_presets`). Checked on construction: InvalidArgument names the
    field, NotFound an unknown model (with a "did you mean").

    Also :meth:`from_yaml` / :meth:`from_json` (a workload file) and :meth:`from_config_json`
    (a Hugging Face ``config.json``).
    """

    @_checked
    def __init__(self, task: Optional[str] = None, model: Optional[str] = None, *,
                 _file: str = "", **fields: Value):
        values: Dict[str, str] = {}
        if task is not None:
            values["task"] = _text(task)
        if model is not None:
            values["model"] = _text(model)
        for key, value in fields.items():
            if value is None:
                continue
            values[_field_name(key)] = _text(value)
        self._file = _file
        self._values = values
        # Numbers and booleans go to the core as they are (no text round trip); the text above is
        # what `fields`, cli_args() and repr() show.
        typed: Dict[str, Any] = dict(values)
        for key, value in fields.items():
            if isinstance(value, (bool, int, float)):
                typed[_field_name(key)] = value
        self._typed = typed
        try:
            self._core = _core.Workload(_file, typed)
        except InvalidArgument as err:
            prefix = 'unknown workload field "'
            message = str(err)
            if err.field is None and message.startswith(prefix):
                err.field = message[len(prefix):].split('"', 1)[0].replace("-", "_")
            raise

    @classmethod
    def from_yaml(cls, path: Union[str, _os.PathLike], **fields: Value) -> "Workload":
        """A YAML workload file (keys as the CLI flags); ``fields`` apply on top."""
        return cls(_file=_os.fspath(path), **fields)

    @classmethod
    def from_json(cls, path: Union[str, _os.PathLike], **fields: Value) -> "Workload":
        """A JSON workload file (keys as the CLI flags); ``fields`` apply on top."""
        return cls(_file=_os.fspath(path), **fields)

    @classmethod
    def from_file(cls, path: Union[str, _os.PathLike], **fields: Value) -> "Workload":
        """A YAML or JSON workload file (``--workload FILE``); ``fields`` apply on top."""
        return cls(_file=_os.fspath(path), **fields)

    @classmethod
    def from_config_json(cls, path: Union[str, _os.PathLike], task: Optional[str] = None,
                         **fields: Value) -> "Workload":
        """The architecture from a Hugging Face ``config.json`` (``--model-config``), for
        ``task`` (the workload's default, pretrain, when None) with ``fields`` on top."""
        return cls(task=task, model_config=_os.fspath(path), **fields)

    def replace(self, **fields: Value) -> "Workload":
        """A copy with some fields changed or added."""
        merged: Dict[str, Any] = {k.replace("-", "_"): v for k, v in self._typed.items()}
        merged.update(fields)
        return Workload(_file=self._file, **merged)

    @property
    def task(self) -> str:
        """The task name ("pretrain", "qlora", "serve", ...)."""
        return self._core.task

    @property
    def model_name(self) -> str:
        """Preset name or config origin; "" for an explicit architecture."""
        return self._core.model_name

    @property
    def params(self) -> float:
        """Total parameters of the model (derived from the architecture)."""
        return self._core.params

    @property
    def fields(self) -> Dict[str, str]:
        """The fields as given (dashed names, text)."""
        return dict(self._values)

    def cli_args(self) -> List[str]:
        """The same workload as CLI flags (``["--task", "qlora", ...]``)."""
        out: List[str] = []
        if self._file:
            out += ["--workload", self._file]
        for key, value in self._values.items():
            out.append(f"--{key}={value}")
        return out

    def __repr__(self) -> str:
        inner = ", ".join(f"{k.replace('-', '_')}={v!r}" for k, v in self._values.items())
        if self._file:
            inner = f"file={self._file!r}" + (", " + inner if inner else "")
        return f"Workload({inner})"


def _parallelism_fields(parallelism: Mapping[str, Any]) -> Dict[str, Any]:
    return {k: v for k, v in parallelism.items() if v is not None}


# ---- estimate, recommend, pricing -----------------------------------------------------------

@_with_options("estimate")
def estimate(workload: Workload, *, catalog: Optional[Catalog] = None,
             **options: Value) -> Estimate:
    """Memory, time and cost of ``workload`` on given hardware (``gpuadvisor estimate``).

    Hardware: ``instance`` (and ``count`` instances), or ``gpu`` (and ``gpus`` devices). Other
    keyword arguments are workload fields that refine ``workload``: ``tp``, ``pp``, ``dp``,
    ``zero``, ``micro_batch``, ``recompute``, ... (the CLI's workload flags); unset parallelism
    is chosen (the fastest layout that fits).
    Raises NotFound (unknown type / GPU / region), InvalidArgument naming the option,
    Unsupported (the hardware cannot run the task).
    """
    workload = _workload_arg(workload)
    names = set(_option_names("estimate"))
    hardware = {k: v for k, v in options.items() if k.replace("-", "_") in names}
    fields = {k: v for k, v in options.items() if k.replace("-", "_") not in names}
    if fields:
        workload = workload.replace(**{k: v for k, v in fields.items() if v is not None})
    data, warnings, text = _catalog_of(catalog)._core.estimate(workload._core, hardware)
    return Estimate(data, warnings, text)


@_with_options("recommend")
def recommend(workload: Workload, *, catalog: Optional[Catalog] = None,
              **options: Any) -> Recommendation:
    """Ranked plans for ``workload`` over the whole catalog (``gpuadvisor recommend``).

    ``deadline`` is a duration (``"36h"``, ``"14d"``; a number is hours); ``budget`` USD for the
    run; ``regions`` a list or ``"all"`` (default us-east-1); ``purchase`` a name or a list.
    No feasible plan is not an error: ``plans`` is empty and ``rejected`` says why. Anything but
    a :class:`Workload` as ``workload`` (``recommend("serve llama")``) raises InvalidArgument. The GIL is
    released during the search; calls from several threads run in parallel.
    """
    workload = _workload_arg(workload)
    handle = _catalog_of(catalog)._core.recommend(workload._core, options)
    return Recommendation(handle, _core.current_language())


@_with_options("pricing")
def pricing(instance_type: str, *, catalog: Optional[Catalog] = None,
            **options: Any) -> Pricing:
    """Cost of each purchase option for a usage pattern, with break-even (``gpuadvisor pricing``).

    Durations (``checkpoint_interval``, ``restart``) take ``"30m"``-style text (a number is
    hours). ``hours`` is one continuous run of that many hours per instance (instead of
    ``hours_per_month`` and ``months``; a Capacity Block covers it in whole days). Raises NotFound
    for an unknown type or region, NoResult when the type is not sold in the region,
    InvalidArgument naming the option.
    """
    data, warnings, text = _catalog_of(catalog)._core.pricing({"type": instance_type, **options})
    return Pricing(data, warnings, text)


@_with_options("launch")
def launch(instance_type: Optional[str] = None, *, plan: Any = None,
           catalog: Optional[Catalog] = None, **options: Any) -> Dict[str, Any]:
    """A ready-to-run launch spec (``gpuadvisor launch``), as ``POST /v1/launch`` answers it.

    Give an instance type, or ``plan``: a :class:`Recommendation`, its ``to_dict()`` (``rank``
    picks the plan) or one plan of it; the plan sets the type, count, region and purchase option
    (``region``/``purchase`` must agree with it). Returns a dict with format, file_name,
    instance_type, count, region, spot, reasons, warnings, document and cli_input_json (aws-cli).
    Raises InvalidArgument naming the option (``.field``), NotFound for an unknown type or region.
    """
    if isinstance(plan, Recommendation):
        plan = plan.to_dict()
    args = dict(options)
    if instance_type is not None:
        args["type"] = instance_type
    return _catalog_of(catalog)._core.launch(plan, args)


@_with_options("idle")
def idle(paths: Union[str, _os.PathLike, Sequence[Union[str, _os.PathLike]]],
         inventory: Union[None, str, _os.PathLike] = None, *,
         catalog: Optional[Catalog] = None, **options: Any) -> IdleReport:
    """Idle periods, wasted dollars and rightsizing from GPU telemetry (``gpuadvisor idle``).

    ``paths``: nvidia-smi CSV or ``-q -x`` XML, DCGM/Prometheus text, CloudWatch GetMetricData
    JSON (``.gz`` too). ``inventory``: CSV ``hostname,instance_type[,region][,purchase]``.
    Durations take ``"30m"``-style text (a number is hours). Each host's ``status`` says whether
    it was observed long enough for a verdict. The GIL is released while the files are read.
    Raises IoError / ParseError naming file:line, InvalidArgument naming the option, NoResult
    without samples.

    ``prometheus="http://host:9090"`` (with ``paths=[]``) reads DCGM metrics from a
    Prometheus-compatible server instead, summarised there per ``step`` window over ``since``
    up to ``until``.
    """
    if isinstance(paths, (str, _os.PathLike)):
        paths = [paths]
    if inventory is not None:
        options["inventory"] = _os.fspath(inventory)
    data, warnings, text = _catalog_of(catalog)._core.idle([_os.fspath(p) for p in paths], options)
    return IdleReport(data, warnings, text)


@_with_options("commitments")
def commitments(paths: Union[str, _os.PathLike, Sequence[Union[str, _os.PathLike]]], *,
                catalog: Optional[Catalog] = None, **options: Any) -> CommitmentReport:
    """Reserved Instances and Savings Plans sized from the account's bill
    (``gpuadvisor commitments``).

    ``paths``: AWS Cost and Usage Report CSV files (CUR 2.0 or legacy; ``.gz`` too), or the
    push-down query's result (``gpuadvisor commitments --sql``). ``term`` ("1y", "3y", "any"),
    ``payment``, ``burst`` ("on-demand", "spot", "capacity-block"), ``discount`` (%),
    ``expiring_days``. The GIL is released while the files are read. Raises IoError / ParseError
    naming file:line and the column, InvalidArgument naming the option, NoResult when the bill
    holds no accelerator usage or commitment.
    """
    if isinstance(paths, (str, _os.PathLike)):
        paths = [paths]
    data, warnings, text = _catalog_of(catalog)._core.commitments([_os.fspath(p) for p in paths],
                                                                  options)
    return CommitmentReport(data, warnings, text)


# ---- helpers ---------------------------------------------------------------------------------

def workload_fields() -> List[str]:
    """Every workload field name (the CLI's spelling; use underscores as keyword arguments)."""
    return list(_core.workload_fields())


def model_presets() -> List[str]:
    """Names of the built-in model architectures (``model=`` values)."""
    return list(_core.model_presets())


@_checked
def account_show(path: Union[None, str, _os.PathLike] = None) -> Dict[str, Any]:
    """The account scan ``recommend`` reads (``gpuadvisor account show --json``): the file at
    ``path``, else ``$GPUADVISOR_ACCOUNT``, else the one ``gpuadvisor account scan`` wrote.
    ``recommend(..., account=path or "none")`` chooses the scan the same way. Raises NotFound when
    none is named and there is no user scan, IoError when a named file cannot be read, ParseError
    or InvalidArgument (field ``account``) for a malformed one."""
    import json
    return json.loads(_core.account_show(_os.fspath(path) if path is not None else ""))


@_in_language
def models() -> RecordList:
    """Every model preset with family, tasks, parameters, shape and source (``gpuadvisor models``);
    ``str()`` of the list is the CLI's table. ``lang="zh"`` words the table in Chinese (default:
    the environment's language, as the CLI)."""
    data, text = _core.models()
    out = RecordList(ModelPreset(m) for m in data)
    out.text = text
    return out


@_checked
def main(argv: Optional[Sequence[str]] = None) -> int:
    """Runs the gpuadvisor command line in this process (``python -m gpuadvisor ...``)."""
    args = list(_sys.argv[1:] if argv is None else argv)
    _sys.stdout.flush()
    _sys.stderr.flush()
    return _core.main(["gpuadvisor", *args])


def console_main() -> None:
    """Entry point of the ``gpuadvisor`` command that ``pip install`` creates."""
    _sys.exit(main())


def __dir__() -> List[str]:
    """``dir(gpuadvisor)``: the public API (``__all__`` and the module's own attributes), not the
    modules and typing names the package uses inside (``os``, ``sys``, ``threading``, ``Any``)."""
    return sorted(set(__all__) | {"CURRENCIES", "money_key", "__version__", "__doc__",
                                  "__file__", "__name__", "__path__", "__package__", "__spec__",
                                  "__loader__", "__all__"})
