"""A documentation page in several languages is one page: told by a language tag in its
path, against its English original."""

from __future__ import annotations

import pytest

from tierscope.ranking.file_roles import is_translated_page
from tierscope.translations import ServedPages, page_and_language, words_held


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("docs/en/docs/cors.md", ("docs/docs/cors", "en")),
        ("docs/pt-BR/docs/cors.md", ("docs/docs/cors", "pt-BR")),
        ("docs/zh-hant/guide.md", ("docs/guide", "zh-hant")),
        ("docs/guide.md", ("docs/guide", "")),
        ("README.fr.md", ("README", "fr")),
        ("Readme_zh-CN.md", ("Readme", "zh-CN")),
        ("docs/README-de.md", ("docs/README", "de")),
        ("docs/getting-started.md", ("docs/getting-started", "")),
        ("docs/user_guide.md", ("docs/user_guide", "")),
        ("guide/intro.ja.rst", ("guide/intro", "ja")),
        ("docs/fr/guide.mdown", ("docs/guide", "fr")),
        ("docs/de/guide.asciidoc", ("docs/guide", "de")),
        ("notes.v2.md", ("notes.v2", "")),
        ("README.cn.md", ("README", "cn")),  # not ISO 639-1, but what projects write
        # A folder named with a tag after a dot (tldr's `pages.fr/`, beside `pages/`).
        ("pages.fr/common/tar.md", ("pages/common/tar", "fr")),
        ("pages.pt_BR/linux/ip.md", ("pages/linux/ip", "pt_BR")),
        ("pages.it/common/tar.md", ("pages/common/tar", "it")),
        ("docs/v1.2/intro.md", ("docs/v1.2/intro", "")),
        ("node.js/intro.md", ("node.js/intro", "")),
        ("src/de/module.py", None),
        ("LICENSE", None),
    ],
)
def test_a_path_names_its_page_and_language(path, expected):
    assert page_and_language(path) == expected


def served(*paths: str) -> ServedPages:
    pages = ServedPages()
    for path in paths:
        pages.add(path)
    return pages


@pytest.mark.parametrize(
    ("kept", "candidate"),
    [
        ("docs/en/docs/cors.md", "docs/de/docs/cors.md"),
        ("docs/de/docs/cors.md", "docs/en/docs/cors.md"),  # the better-ranked one stays
        ("docs/guide/start.md", "docs/zh/guide/start.md"),
        ("README.md", "README.pt-BR.md"),
        ("Readme.md", "Readme_zh-CN.md"),
        ("docs/en/a.md", "docs/it/a.md"),
        ("docs/de/a.md", "docs/fr/a.md"),  # the original itself was not served
        # A tag before the extension is a language, even one that is also a word.
        ("README.md", "README.it.md"),
        ("README.md", "README.id.md"),
        ("README.md", "README.cn.md"),
        ("README.md", "README.jp.md"),
        # Translations kept in a folder of their own, the original above them.
        ("README.md", "doc/README-zh.md"),
        ("docs/guide.md", "docs/translations/guide.ko.md"),
        # The same page in another format: Starlight's English .mdx, its pt-PT copy .md.
        ("docs/environmental-impact.mdx", "docs/pt-pt/environmental-impact.md"),
        ("README.rst", "README.zh-CN.md"),
        # tldr: every language's pages in a folder named `pages.<tag>`.
        ("pages/common/tar.md", "pages.fr/common/tar.md"),
        ("pages/common/tar.md", "pages.zh_TW/common/tar.md"),
        ("pages/common/tar.md", "pages.id/common/tar.md"),
        # Crowdin's folders (starship's docs): a code that is also a word, with its region
        # in capitals, is a language (`it-IT`, `id-ID`, `no-NO`); so is a code of three
        # letters with its region (`ckb-IR`, `fil-PH`).
        ("docs/setup.md", "docs/it-IT/setup.md"),
        ("docs/setup.md", "docs/id-ID/setup.md"),
        ("docs/setup.md", "docs/no-NO/setup.md"),
        ("docs/setup.md", "docs/ckb-IR/setup.md"),
        ("docs/setup.md", "docs/fil-PH/setup.md"),
    ],
)
def test_another_language_of_a_served_page_is_a_translation(kept, candidate):
    assert served(kept).is_translation(candidate)


@pytest.mark.parametrize(
    ("kept", "candidate"),
    [
        ("docs/io/a.md", "docs/os/a.md"),  # folders named like languages
        ("docs/it/a.md", "docs/de/a.md"),
        ("docs/a.md", "docs/en/a.md"),  # both English: two files of the project
        ("docs/index.md", "docs/io/index.md"),  # a section named like a language
        ("docs/index.md", "docs/ml/index.md"),
        ("docs/en/a.md", "docs/en/b.md"),
        ("src/en/a.py", "src/de/a.py"),  # code, not documentation
        ("docs/en/a.md", "docs/en/a.md"),
        ("docs/how-to.md", "docs/how-to-do-it.md"),  # a word after a hyphen is a word
        ("docs/index.md", "docs/cn/index.md"),
        ("doc/README.md", "README-zh.md"),  # the original is never below its translation
        ("README.md", "doc/README.md"),  # two English pages
        ("docs/index.md", "docs/my-os/index.md"),  # words, not a code and its region
        ("docs/index.md", "docs/api-v2/index.md"),
        ("docs/index.md", "docs/web-UI/index.md"),
        # A name ending in a code after `_` or `-`, with no region, is a language only
        # beside its untagged original: Prometheus's `http_sd.md` (HTTP service discovery)
        # is no Sindhi page, nor its neighbours Hindi and Turkish ones.
        ("docs/topic_sd.md", "docs/topic_hi.md"),
        ("docs/topic_de.md", "docs/topic-tr.md"),
    ],
)
def test_other_pairs_are_not_translations(kept, candidate):
    assert not served(kept).is_translation(candidate)


@pytest.mark.parametrize(
    ("path", "others", "translated"),
    [
        ("README-de.md", ["README.md"], True),
        ("docs/README_fr.md", ["docs/README.md"], True),
        ("docs/http_sd.md", ["docs/configuration.md", "docs/http_sd_config.md"], False),
        ("docs/http_sd.md", [], False),
        ("docs/topic_hi.md", ["docs/topic_sd.md"], False),
        ("docs/how-to-do-it.md", ["docs/how-to-do.md"], False),  # a code that is a word
    ],
)
def test_a_name_tagged_after_a_hyphen_is_a_translation_beside_its_original(
    path, others, translated
):
    assert is_translated_page(path, [path, *others]) is translated


def test_words_held_counts_the_query_words_a_text_spells_as_written():
    text = "Si tu aplicación depende de eventos, usa `Depends` y las pruebas."
    assert words_held(text, ["dependency", "pruebas", "depends", "tests"]) == 2
    assert words_held("The dependency_overrides dict", ["dependency", "overrides"]) == 0
    assert words_held("anything", []) == 0


@pytest.mark.parametrize(
    ("path", "translated"),
    [
        ("README.it.md", True),
        ("README.cn.md", True),
        ("docs/es/docs/cors.md", True),
        ("pages.de/common/tar.md", True),
        ("pages.it/common/tar.md", True),
        ("pages/common/tar.md", False),
        ("pages.en/common/tar.md", False),
        ("docs/v1.2/intro.md", False),
        ("docs/it/index.md", False),  # a folder named like a language: maybe a section
        ("docs/it-IT/index.md", True),
        ("docs/ckb-IR/index.md", True),
        ("docs/how-to-do-it.md", False),
        ("README.md", False),
        ("README_zh-CN.md", True),  # a code with its region is a language anywhere
        ("docs/http_sd.md", False),  # a name's suffix: a language only beside its original
        ("README-de.md", False),
    ],
)
def test_a_translated_page_is_told_by_its_path(path, translated):
    assert is_translated_page(path) is translated


def test_the_documents_told_apart_by_language_are_those_read_as_documents():
    # translations.py cannot import ranking (ranking imports it): its list of document
    # suffixes is written out, and must stay the one spans.py reads (notebooks aside).
    from tierscope.ranking.spans import (
        ASCIIDOC_SUFFIXES,
        MARKDOWN_SUFFIXES,
        PLAIN_SUFFIXES,
        RDOC_SUFFIX,
    )
    from tierscope.translations import DOCUMENT_SUFFIXES

    read = (MARKDOWN_SUFFIXES - {".ipynb"}) | ASCIIDOC_SUFFIXES | (PLAIN_SUFFIXES - {""})
    assert set(DOCUMENT_SUFFIXES) == read | {".org", RDOC_SUFFIX}
