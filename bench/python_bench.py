"""Python module timings (not a test): per-call cost of the bindings, the conversion of a big
recommend answer to dicts, and the parallel speed-up of recommend from threads (the GIL is released
during the search).

    PYTHONPATH=build-test/python /usr/bin/python3 bench/python_bench.py [repeats]
"""
import json
import statistics
import sys
import threading
import time

import gpuadvisor as ga

REPEATS = int(sys.argv[1]) if len(sys.argv) > 1 else 20
JOBS = [
    (ga.Workload(task="qlora", model="llama-2-70b", tokens="50M"), {"max_instances": 1}),
    (ga.Workload(task="serve", model="llama-3.1-8b", rps=2, input_tokens=1000, output_tokens=200),
     {"top": 3}),
    (ga.Workload(task="finetune", model="llama-3.1-8b", tokens="200M", epochs=2),
     {"deadline": "24h", "regions": ["us-east-1", "us-west-2"]}),
]


def per_call(label, fn, repeats=REPEATS):
    fn()  # warm (the embedded catalog is parsed on first use)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    print(f"{label:48} median {statistics.median(times) * 1e3:8.2f} ms  min {min(times) * 1e3:8.2f} ms")


c = ga.catalog()
per_call("catalog().instances() (all current types)", lambda: c.instances())
per_call("catalog().instances(...).to_dict()", lambda: c.instances().to_dict())
per_call("catalog().gpus()", lambda: c.gpus())
per_call("Workload(task=finetune, model=..., tokens=...)", lambda: ga.Workload(**{
    "task": "finetune", "model": "llama-3.1-8b", "tokens": "200M"}))
per_call("estimate(finetune 8B on p5.48xlarge)", lambda: ga.estimate(JOBS[2][0], instance="p5.48xlarge"))
for i, (job, kw) in enumerate(JOBS):
    per_call(f"recommend job {i + 1} ({job.task})", lambda job=job, kw=kw: ga.recommend(job, **kw))
    rec = ga.recommend(job, **kw)
    per_call(f"  its to_dict()", rec.to_dict)

# A big answer (every region, four purchase options, up to 200 plans, about 1 MiB of JSON): its
# json() builds the view and converts it to dicts (walked since issue 24; before that, printed to
# text and parsed again).
big = c._core.recommend(
    ga.Workload(task="finetune", model="llama-3.1-8b", tokens="200M")._core,
    {"regions": "all", "purchase": "on-demand,spot,reserved-1y-no-upfront,capacity-block",
     "top": "200"})
big_text = json.dumps(big.json())
per_call(f"big recommend answer json() ({len(big_text) / 1024:.0f} KiB)", big.json)
per_call("  json.loads of its text, for scale", lambda: json.loads(big_text))


def run_all():
    for job, kw in JOBS:
        ga.recommend(job, **kw)


def threaded(n):
    threads = [threading.Thread(target=run_all) for _ in range(n)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.perf_counter() - start


run_all()
serial = min(threaded(1) for _ in range(3)) * 4
parallel = min(threaded(4) for _ in range(3))
print(f"4 x (3 recommends): serial {serial * 1e3:.0f} ms, 4 threads {parallel * 1e3:.0f} ms, "
      f"speed-up {serial / parallel:.2f}x")
