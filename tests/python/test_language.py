"""Issue 42: the module's text (tables, warnings, error messages) in the language a call asks for
(``lang=``) or, without it, the one the environment asks for, as the CLI chooses it (LANGUAGE,
LC_ALL, LC_MESSAGES, LANG); and ``dir(gpuadvisor)`` lists the API, not the modules it uses."""
import re
import subprocess

import pytest

import gpuadvisor as ga

CJK = re.compile(r"[\u3400-\u9fff]")
LOCALE_VARS = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


@pytest.fixture
def no_locale(monkeypatch):
    """An environment that asks for no language (English), whatever the test runner's is."""
    for name in LOCALE_VARS:
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def cli_header(cli_path, env, *args):
    """The first line of the CLI's table for `args`, run with `env` as its only locale variables."""
    proc = subprocess.run([cli_path, *args], capture_output=True, text=True, check=True,
                          env={"PATH": "/usr/bin:/bin", **env})
    return proc.stdout.splitlines()[0]


def test_lang_words_the_table_as_the_cli_does(no_locale, cli_path):
    zh = str(ga.pricing("p5.48xlarge", lang="zh"))
    en = str(ga.pricing("p5.48xlarge", lang="en"))
    assert CJK.search(zh) and not CJK.search(en)
    assert zh.splitlines()[0] == cli_header(cli_path, {}, "pricing", "p5.48xlarge", "--lang", "zh")
    assert en.splitlines()[0] == cli_header(cli_path, {}, "pricing", "p5.48xlarge")
    assert str(ga.pricing("p5.48xlarge")) == en  # no lang, no locale: English
    models = str(ga.models(lang="zh"))
    assert models.splitlines()[0] == cli_header(cli_path, {}, "models", "--lang", "zh")


@pytest.mark.parametrize("name", LOCALE_VARS)
def test_environment_chooses_the_language_like_the_cli(no_locale, cli_path, name):
    no_locale.setenv(name, "zh_CN.UTF-8")
    if name == "LANGUAGE":  # gettext: LANGUAGE counts only with a locale set (not C)
        no_locale.setenv("LANG", "en_US.UTF-8")
    text = str(ga.pricing("p5.48xlarge"))
    env = {name: "zh_CN.UTF-8", **({"LANG": "en_US.UTF-8"} if name == "LANGUAGE" else {})}
    assert text.splitlines()[0] == cli_header(cli_path, env, "pricing", "p5.48xlarge")
    assert CJK.search(text.splitlines()[0])
    # lang= wins over the environment, as --lang does.
    assert not CJK.search(str(ga.pricing("p5.48xlarge", lang="en")))


def test_errors_warnings_and_recommendations_in_the_calls_language(no_locale):
    with pytest.raises(ga.InvalidArgument) as zh:
        ga.catalog().instances(min_gpus="lots", lang="zh")
    with pytest.raises(ga.InvalidArgument) as en:
        ga.catalog().instances(min_gpus="lots")
    assert CJK.search(str(zh.value)) and not CJK.search(str(en.value))
    assert zh.value.field == en.value.field == "min_gpus"
    job = ga.Workload(task="serve", model="llama-3.1-8b", rps=1)
    rec = ga.recommend(job, top=2, lang="zh")
    # str() later, with the environment in English: still the call's language.
    assert CJK.search(str(rec))
    assert not CJK.search(str(ga.recommend(job, top=2)))
    est = ga.estimate(job, instance="g6e.xlarge", lang="zh")
    assert CJK.search(str(est))


def test_lang_is_checked_and_documented():
    with pytest.raises(ga.InvalidArgument) as e:
        ga.pricing("p5.48xlarge", lang="fr")
    assert e.value.field == "lang"
    assert "en or zh" in str(e.value)
    assert "lang (str)" in ga.recommend.__doc__
    import inspect
    assert "lang" in inspect.signature(ga.estimate).parameters


def test_dir_lists_the_api_not_the_modules_it_uses():
    names = dir(ga)
    for internal in ("os", "sys", "threading", "copy", "functools", "inspect", "math", "Any",
                     "Optional", "Union", "annotations"):
        assert internal not in names, internal
    for public in ("recommend", "estimate", "Workload", "Catalog", "Error", "__version__"):
        assert public in names, public
    assert set(ga.__all__) <= set(names)
