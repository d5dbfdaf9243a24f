#!/usr/bin/env bash
# The message catalogs (doc/i18n.md), with GNU gettext's own tools (Debian package gettext):
#   scripts/i18n.sh extract   po/gpuadvisor.pot from the messages marked in src/ (Tr, Trf, N_),
#                             then po/zh_CN.po merged with it (new messages come in untranslated,
#                             gone ones become obsolete "#~" entries for the translator to delete)
#   scripts/i18n.sh check     fails when po/gpuadvisor.pot is not what `extract` would write, when
#                             a marked message has no (or only a fuzzy) zh_CN translation, when
#                             po/zh_CN.po has an entry no code marks, or when msgfmt --check fails
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in xgettext msgmerge msgattrib msgfmt; do
  command -v "$tool" >/dev/null || { echo "i18n.sh: $tool missing (apt-get install gettext)" >&2; exit 2; }
done

# Writes the template of every marked message to $1: file names without line numbers and no
# creation date, so that it changes only when a marked message does (the file is committed and
# compared). xgettext's warnings about non-ASCII msgids ("$/GPU·h") are shown only on failure.
pot() {
  local log
  log=$(mktemp)
  if ! git ls-files 'src/*.cc' 'src/*.h' | LC_ALL=C sort |
    xgettext --language=C++ --from-code=UTF-8 --files-from=- --output="$1" \
      --keyword= --keyword=Tr --keyword=Trf --keyword=N_ \
      --flag=Tr:1:no-c-format --flag=Trf:1:no-c-format --flag=N_:1:no-c-format \
      --add-comments=TRANSLATORS: --add-location=file --sort-by-file --no-wrap \
      --package-name=gpuadvisor --msgid-bugs-address= 2>"$log"; then
    cat "$log" >&2
    rm -f "$log"
    return 1
  fi
  rm -f "$log"
  sed -i -e '/^"POT-Creation-Date: /d' -e 's/charset=CHARSET/charset=UTF-8/' "$1"
}

case "${1:-}" in
  extract)
    pot po/gpuadvisor.pot
    msgmerge --quiet --update --backup=none --no-fuzzy-matching --no-wrap po/zh_CN.po po/gpuadvisor.pot
    echo "po/gpuadvisor.pot: $(grep -c '^msgid ' po/gpuadvisor.pot) messages; po/zh_CN.po merged"
    ;;
  check)
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    pot "$tmp/gpuadvisor.pot"
    status=0
    if ! cmp -s "$tmp/gpuadvisor.pot" po/gpuadvisor.pot; then
      echo "po/gpuadvisor.pot is out of date: run scripts/i18n.sh extract" >&2
      diff -u po/gpuadvisor.pot "$tmp/gpuadvisor.pot" | head -20 >&2 || true
      status=1
    fi
    msgmerge --quiet --no-fuzzy-matching --no-wrap -o "$tmp/merged.po" po/zh_CN.po "$tmp/gpuadvisor.pot"
    untranslated=$(msgattrib --untranslated --no-obsolete --no-wrap "$tmp/merged.po" | grep '^msgid "' | grep -vc '^msgid ""$' || true)
    fuzzy=$(msgattrib --only-fuzzy --no-obsolete --no-wrap "$tmp/merged.po" | grep '^msgid "' | grep -vc '^msgid ""$' || true)
    obsolete=$(msgattrib --only-obsolete --no-wrap "$tmp/merged.po" | grep -c '^#~ msgid ' || true)
    if [ "$untranslated" != 0 ] || [ "$fuzzy" != 0 ]; then
      echo "po/zh_CN.po: $untranslated message(s) untranslated, $fuzzy fuzzy:" >&2
      msgattrib --untranslated --no-obsolete --no-wrap "$tmp/merged.po" | grep '^msgid "' | grep -v '^msgid ""$' | head -20 >&2
      msgattrib --only-fuzzy --no-obsolete --no-wrap "$tmp/merged.po" | grep '^msgid "' | grep -v '^msgid ""$' | head -20 >&2
      status=1
    fi
    if [ "$obsolete" != 0 ]; then
      echo "po/zh_CN.po: $obsolete entr(y/ies) that no code marks any more (delete them):" >&2
      msgattrib --only-obsolete --no-wrap "$tmp/merged.po" | grep '^#~ msgid ' | head -20 >&2
      status=1
    fi
    if ! msgfmt --check --statistics -o "$tmp/zh_CN.mo" po/zh_CN.po; then
      status=1
    fi
    if [ "$status" = 0 ]; then
      echo "po/zh_CN.po: all $(($(grep -c "^msgid " "$tmp/gpuadvisor.pot") - 1)) marked messages translated"
    fi
    exit "$status"
    ;;
  *)
    echo "usage: scripts/i18n.sh extract|check" >&2
    exit 2
    ;;
esac
