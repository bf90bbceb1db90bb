"""The ranking core: terms, matching, BM25 and sections, the same for every tier."""

from __future__ import annotations

import re
from collections import Counter
from unittest.mock import patch

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tierscope.models import left_out_lines
from tierscope.ranking import matching
from tierscope.ranking.analysis import query_terms, split_identifier
from tierscope.ranking.bm25 import Scorer
from tierscope.ranking.candidates import Candidates, rank
from tierscope.ranking.code_blocks import code_blocks
from tierscope.ranking.editions import version_number
from tierscope.ranking.file_roles import (
    AS_IS,
    BUILT_OUTPUT,
    COMPLETION_WEIGHT,
    DATED_POST,
    DECLARATIONS_WEIGHT,
    DEMOTION_LABEL,
    EXAMPLE_WEIGHT,
    GENERATED,
    PAPERWORK_WEIGHT,
    POST_DEMOTION_LABEL,
    POST_WEIGHT,
    TEST_FILE,
    TEST_FILE_WEIGHT,
    TRANSLATION_WEIGHT,
    VERSIONED_WEIGHT,
    is_dated_post,
    role_weigher,
    weighted,
    without_the_subject,
)
from tierscope.ranking.generated_files import generated_weigher
from tierscope.ranking.inline_tests import inline_tests
from tierscope.ranking.matching import TermMatcher, leftmost_first
from tierscope.ranking.names_apart import NamesHeld, apart
from tierscope.ranking.navigation import imports_only, navigation_test
from tierscope.ranking.path_terms import path_terms, paths_terms
from tierscope.ranking.post_titles import title_line
from tierscope.ranking.prose_bounds import ProseBounds
from tierscope.ranking.query_asks import (
    asking_keys,
    constant_names_weighed,
    names_looked_up,
    query_names,
)
from tierscope.ranking.sections import cut_snippet
from tierscope.ranking.spans import Span
from tierscope.ranking.stand_in_pages import refers_elsewhere
from tierscope.ranking.test_paths import is_test_file


def keys(text: str) -> list[str]:
    return [term.key for term in query_terms(text)]


def counts(query: str, text: str) -> dict[str, int]:
    return TermMatcher(query_terms(query)).count(text)


def test_query_terms_drop_stopwords_stem_and_keep_literal_text():
    assert keys("How does the token budget work?") == ["token", "budget", "work"]
    assert keys("the of and") == ["the", "of", "and"]
    assert keys("foo( [bar]* -xy") == ["foo", "bar", "xy"]
    assert keys("retargeted policies") == ["retarget", "polici"]


def test_the_words_that_frame_a_question_about_code_are_no_terms():
    # "where is X implemented" asks for X: `implement` is rare in code, and its weight
    # put files that say "implement" above the one that defines X.
    assert keys("where is click.style implemented") == ["click", "style"]
    assert keys("res.download implementation") == ["res", "download"]
    assert keys("where is echo defined, what happens") == ["echo"]
    assert keys("implement a custom loader") == ["implement", "custom", "loader"]


def test_what_am_i_doing_wrong_asks_no_term():
    # Textual's "query_one ... raises NoMatches, what am I doing wrong?": `wrong` found
    # `WrongType`, and put the page raising it above the one saying to await `mount()`.
    assert keys("query_one raises NoMatches, what am I doing wrong?") == [
        "queri", "one", "rais", "match", "queryone", "nomatches",
    ]  # fmt: skip
    assert keys("a wrong password locks the account") == ["wrong", "password", "lock", "account"]
    assert keys("what goes wrong") == ["goe", "wrong"]


def test_a_stopword_capitalised_inside_a_sentence_is_a_name():
    # urfave/cli's "Is the After hook still run when the action fails": the field `After`
    # was dropped as a stopword, and command_run.go came seventh.
    assert keys("Is the After hook still run when the action fails") == [
        "after", "hook", "still", "run", "action", "fail",
    ]  # fmt: skip
    assert "not" in keys("where is 405 Method Not Allowed raised")
    # Not a sentence's first word, nor `I`, nor a part of a hyphenated name.
    assert keys("The app hangs. How do I stop it") == ["app", "hang", "stop"]
    assert keys("After I save, what runs") == ["save", "run"]
    assert keys("the X-Forwarded-For header") == ["forward", "header", "xforwardedfor"]


def test_things_like_an_example_asks_no_term():
    # Starlette's "where can I keep things like a shared HTTP client": `thing` and `like`
    # put the test client's page ("do async things", "like httpx.AsyncClient") above the
    # lifespan page that answers.
    assert keys("where can I keep things like a shared HTTP client") == [
        "keep", "share", "http", "client",
    ]  # fmt: skip
    assert keys("something like a retry policy") == ["retri", "polici"]
    assert keys("like operator in sql queries") == ["like", "oper", "sql", "queri"]


def test_let_me_frames_a_question():
    # pinia's "How does the testing helper let me provide starting values for every
    # store's state?": `let` found every JavaScript `let` declaration.
    assert keys("does the testing helper let me provide starting values") == [
        "test", "helper", "provid", "start", "valu",
    ]  # fmt: skip
    assert keys("an option that lets you give every store a state") == [
        "option", "give", "everi", "store", "state",
    ]  # fmt: skip
    assert "let" in keys("let statement shadowing")  # Rust's `let` is a term


def test_how_do_i_make_frames_a_question():
    # Lip Gloss's "How do I make a piece of styled text clickable to open a URL?": `make`
    # found every Go `make([]string, n)`, and put join.go and align.go above set.go.
    assert keys("How do I make a piece of styled text clickable") == [
        "piec", "style", "text", "clickabl",
    ]  # fmt: skip
    assert keys("is there a way to make git ignore my local edits") == [
        "way", "git", "ignor", "local", "edit",
    ]  # fmt: skip
    assert "make" in keys("make targets for the docs")  # a Makefile's is a term
    assert "make" in keys("make builtin slices")


def test_how_do_i_tell_and_for_example_frame_a_question():
    # gorilla/mux's "how do I tell the router not to clean the path": `tell` found
    # "UseEncodedPath tells the router..."; lazy.nvim's "..., for example a colorscheme":
    # `example` put its example module first.
    assert keys("how do I tell the router not to clean the path") == ["router", "clean", "path"]
    assert keys("load a plugin lazily, for example a colorscheme") == [
        "load", "plugin", "lazili", "colorschem",
    ]  # fmt: skip
    assert "exampl" in keys("an example of a custom loader")
    assert "tell" in keys("tell command")


def test_how_do_i_get_frames_a_question():
    # gum's "how do I get to see...": `get` found Go getters (`GetForeground`), the wrong
    # first hit's strongest term.
    assert keys("how do I get to see the spinner's title") == ["see", "spinner", "titl"]
    assert keys("we want to get back to where we were") == ["want", "back"]
    assert "get" in keys("get request handler")  # HTTP's GET, a getter: terms
    assert "get" in keys("the get method of a dict")


def test_how_long_frames_a_question():
    # Textual's "how long does a notification stay on screen by default before it goes
    # away": `long` asks for a duration and found "long form" in app.py, not
    # NOTIFICATION_TIMEOUT's "Default number of seconds to show notifications".
    assert keys("how long does a notification stay on screen") == ["notifi", "stay", "screen"]
    assert keys("How long can a connection sit idle") == ["connect", "sit", "idl"]
    assert "long" in keys("long lines are clipped")  # a long line: a term
    assert "long" in keys("how to parse long options")


def test_which_code_frames_a_question():
    # tox's "Which code decides to rebuild an environment" and mocha's "where does the code
    # decide ... slow": in a code scope every file is code, and `code` found "exit code".
    assert keys("Which code decides to rebuild an environment") == [
        "decid", "rebuild", "environ",
    ]  # fmt: skip
    assert keys("where does the code decide that a test is slow") == [
        "decid", "test", "slow",
    ]  # fmt: skip
    assert keys("where in the code is the timeout set") == ["timeout", "set"]
    assert "code" in keys("exit code of a failed run")
    assert "code" in keys("which status code does it return")
    assert "code" in keys("highlight the code block")


def test_the_users_own_code_frames_a_question():
    # logrus' "which function in my code made the log call": `code` found `os.Exit(code)`.
    assert "code" not in keys("which function in my code made the log call")
    assert "code" not in keys("is it called from your code or from ours")
    assert "code" not in keys("what happens inside our code when it panics")
    assert "code" in keys("my code block has no highlighting")


def test_the_library_asked_about_and_making_sure_frame_a_question():
    # jsonschema's "how does the library make sure that True is not treated as an integer":
    # `librari`, `make` and `sure`, matched in a DeprecationWarning's text, put
    # validators.py above _types.py.
    assert keys("how does the library make sure that True is not an integer") == [
        "true", "integ",
    ]  # fmt: skip
    assert "librari" not in keys("does this library still fetch remote refs")
    assert "librari" in keys("library crate or binary crate")
    assert "librari" in keys("link the library statically")
    assert "sure" in keys("sure") and "make" in keys("make targets")


def test_made_is_a_form_of_make():
    # logrus' "which function ... made the log call": `made` searched alone, rare in code,
    # found "a Fatal log entry is made" in alt_exit.go.
    assert keys("made the log call") == keys("make the log call")


def test_words_of_emphasis_are_no_terms():
    # logrus' "why doesn't calling Log with the panic level actually panic?": `actual`
    # was the rarest word of logger.go, and chose the passage.
    assert keys("why doesn't Log actually panic") == keys("why doesn't Log panic")
    assert keys("it really basically simply panics") == ["panic"]


def test_words_of_when_and_if_are_no_terms():
    # libuv's "what happens to writes that have not finished yet when I close the socket":
    # `yet` was its rarest word, and chose uv_fileno's "no file descriptor yet".
    assert keys("writes not finished yet when I close the socket") == keys(
        "writes not finished when I close the socket"
    )
    assert keys("whether it logs when configured") == ["log", "configur"]
    assert "still" in keys("is it still supported")  # "still in flight", "still supported"


def test_negative_contractions_are_no_terms():
    # zoxide's "when I haven't set a custom location": `haven't` searched `haven`.
    assert keys("when I haven't set a custom location") == ["set", "custom", "locat"]
    assert keys("it hasn't run, it hadn't started, you mustn't") == ["run", "start"]


def test_versus_is_no_term():
    # zod's "prefault vs default": `vs` found "VSCode" split in two, and every comparison.
    assert keys("prefault vs default") == ["prefault", "default"]
    assert keys("tabs versus spaces") == ["tab", "space"]


def test_words_of_vague_quantity_are_no_terms():
    # FastAPI's "run several uvicorn worker processes": `several` put pages saying
    # "several" often above the deployment page on workers. MkDocs' "whenever something
    # happens" found the pages saying "something".
    assert keys("run several uvicorn worker processes") == ["run", "uvicorn", "worker", "process"]
    assert keys("whenever something changes") == ["chang"]
    # bat's "...even though I set the theme somewhere else": discourse, not the subject.
    assert keys("keys ignored even though bindings are set somewhere") == [
        "key", "ignor", "though", "bind", "set",
    ]  # fmt: skip


def test_like_before_an_example_is_no_term():
    # fd's "hidden files like dotfiles", Telescope's "a third-party extension like fzf
    # native": `like` introduces an example, and found every page saying "like".
    assert keys("how do I turn on a third-party extension like fzf native") == [
        "turn", "third", "parti", "thirdparti", "extens", "fzf", "nativ", "thirdparty",
    ]  # fmt: skip
    # First in a query, or in a query of a few words, it names SQL's LIKE.
    assert keys("like operator") == ["like", "oper"]
    assert keys("sql like operator") == ["sql", "oper", "like"]


def test_a_stopword_written_as_a_call_or_a_member_is_a_term():
    # nlohmann/json's `at()`: `basic_json::at` and "how does at() check bounds" searched
    # `basic` and `json`, or `check` and `bound`, never `at`.
    assert keys("at()") == ["at"]
    assert keys("basic_json::at") == ["basic", "json", "at", "basicjson"]
    assert keys("basic_json.at") == ["basic", "json", "at", "basicjson"]
    assert keys("how does at() check bounds") == ["at", "check", "bound"]
    assert keys("is it at the end") == ["end"]


def test_a_stopword_written_as_code_in_backticks_or_a_format_key_is_a_term():
    # Alembic's "where does the config file's %(here)s value get set": searched without
    # `here`, and config.py's `self.config_args["here"] = ...` was never the passage.
    assert "here" in keys("where does the config file's %(here)s value get set")
    assert "here" in keys("where does the config file's `here` value get set")
    assert "here" not in keys("where does the config file get read from here")


def test_settings_are_not_the_verb_set():
    # Ecto: "settings" was searched as `set`, said by every page, and a guide using the
    # verb throughout outranked the one on settings.
    assert keys("embedded schema settings") == ["embed", "schema", "setting"]
    assert keys("where is the setting read") == keys("where are the settings read")
    assert "set" in keys("set the timeout")
    matcher = TermMatcher(query_terms("settings"))
    assert matcher.count("The settings file. We set it, and each setting applies.") == {
        "setting": 2
    }


def test_every_query_term_counts_there_is_no_cap():
    words = "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima"
    assert len(query_terms(words)) == 12


def test_identifiers_split_into_parts_in_any_spelling():
    for word in ("dryrun_preview", "dryrunPreview", "dry-run-preview", "DryRun_Preview"):
        assert "preview" in split_identifier(word)
    assert split_identifier("HTTPServer") == ["http", "server"]
    assert split_identifier("base64") == ["base", "64"]


def test_a_word_written_with_a_capital_after_its_first_letter_is_one_word():
    # werkzeug's "ETag" searched `tag` alone ("entity tags" in the README came first);
    # compose's "IPv6" searched `pv`, which outweighed `ipv6`; "OAuth" searched `auth`.
    assert keys("ETag") == ["etag"]
    assert keys("ETags") == ["etag"]
    assert keys("IPv6 address") == ["ipv6", "address"]
    assert keys("OAuth") == ["oauth"]
    assert keys("jQuery") == ["jqueri"]
    # So is one whose every part is two letters at most: uv's "PyPI" searched `py` and
    # `pi` beside `pypi`, and a page saying "PyPI" counted three times.
    assert keys("run a program from PyPI") == ["run", "program", "pypi"]
    assert keys("PyQt") == ["pyqt"]
    assert "error" in keys("IOError")
    assert "op" in keys("Policy.NoOp")
    assert counts("ETags", "parse_etags, generate_etag and the ETag header") == {"etag": 3}
    # A name whose later parts are a letter still splits (`getX`), and so do others.
    assert "get" in keys("getX")
    assert keys("WebSocket") == ["web", "socket", "websocket"]


def test_the_digits_of_a_query_name_count_only_with_its_letters():
    assert [(t.key, t.compound) for t in query_terms("sha256 of port 8080")] == [
        ("sha", False),
        ("port", False),
        ("8080", False),
        ("sha256", True),
    ]


def test_a_query_identifier_counts_as_its_parts_and_as_a_whole():
    terms = query_terms("call_after_refresh")
    assert [(t.key, t.compound) for t in terms] == [
        ("call", False),
        ("refresh", False),
        ("callafterrefresh", True),
    ]


def test_inflections_match_their_stem():
    assert counts("retargeted", "we are retargeting the build") == {"retarget": 1}
    assert counts("policies", "one policy, two policies") == {"polici": 2}


def test_a_verb_and_the_noun_of_its_action_are_one_term():
    # mdBook's "README to index.md conversion": Snowball stems `conversion` to `convers`
    # and `converting` to `convert`, and the page on converting came second to a warning
    # saying "the conversion".
    text = "converting a file, one conversion, two conversions, it converts"
    assert counts("conversion", text) == {"convert": 4}
    assert counts("convert", text) == {"convert": 4}
    assert counts("include", "file inclusion, included files") == {"includ": 2}
    # A verb in -ify and its noun in -ification (fd's "files modified in the last two
    # weeks" against "modification time"; Snowball stems them `modifi` and `modif`).
    text = "the modification time, two modifications, modified files"
    assert counts("modified", text) == {"modifi": 3}
    assert counts("notification", "notify the user, a notification") == {"notifi": 2}
    # A noun with readings of its own is left apart (a file's extension, a description).
    assert counts("extend", "the file extension") == {}
    assert counts("describe", "the description field") == {}


def test_a_word_whose_stem_keeps_its_final_e_finds_its_ing_form():
    # Snowball stems `store` and `storing` alike, but the search started with `store`:
    # typer's "a directory for storing configurations" never counted for "store".
    text = "storing the config, a story, it was stored, using it, we use it, typing"
    assert counts("store", text) == {"store": 2}
    assert counts("use", text) == {"use": 2}
    assert counts("type", text) == {"type": 1}
    assert counts("write", "writing what was written") == {"write": 2}
    # A stem ending in a vowel and `e` has no such form to look for.
    assert counts("free", "freeing it") == {"free": 1}


def test_parts_match_inside_identifiers_but_not_inside_other_words():
    text = "dryrun_preview dryRunPreview dry-run-preview previewer an overview"
    assert counts("preview", text) == {"preview": 4}
    assert counts("budget", "RetryBudgetExhausted overbudget") == {"budget": 1}


def test_a_part_after_digits_is_a_part_as_the_identifier_splits_it():
    # `25vw` is 25 and vw, as `base64` is base and 64: Textual's "width: 25vw".
    assert counts("vw unit", "Resolves view width unit, i.e. width: 25vw.") == {
        "vw": 1,
        "unit": 1,
    }
    assert counts("px", "a 3px border, 12PX more") == {"px": 2}
    assert counts("view", "preview overview 2view") == {"view": 1}


def test_a_query_word_finds_the_identifier_that_spells_it_in_parts():
    assert counts("textarea", "a TextArea and two TextAreas") == {"textarea": 2}


def test_a_query_word_finds_a_longer_identifier_spelling_it_in_its_first_parts():
    # mdBook's serve.rs: `ws: WebSocketUpgrade` counted nothing for "websocket".
    text = "fn handler(ws: WebSocketUpgrade) -> WebSocketResponse, a socket"
    assert counts("websocket", text) == {"websocket": 2}
    assert counts("textarea", "TextAreaTheme") == {"textarea": 1}
    # Not one part alone, nor parts that do not join to the word.
    assert counts("websocket", "a web page, WebSockUpgrade") == {}
    assert counts("websocket", "WebSocketsUpgrade") == {"websocket": 1}  # its plural


def test_two_query_words_find_them_written_solid():
    # Magit's "repository top level" is `magit-toplevel` in its code and tests; a solid
    # word (`toplevel`, `filenames`) counted for neither word the query wrote apart.
    text = "(defun magit-toplevel ()) the toplevels, top-level, topLevel"
    assert counts("repository top level", text) == {"top": 4, "level": 4}
    assert counts("file name", "the filenames and one file name") == {"file": 2, "name": 2}
    # Only words written next to each other, in that order, are one word solid.
    assert counts("level top", "toplevel") == {}
    assert counts("top of the level", "toplevel") == {}
    # Nor is a word that only starts with the pair another word's solid form.
    assert counts("top level", "toplevelish") == {}


def test_a_compound_matches_with_or_without_separators():
    found = counts("call_after_refresh", "callAfterRefresh call_after_refresh call_later")
    assert found == {"callafterrefresh": 2, "call": 3, "refresh": 2}


def test_a_compound_matches_across_a_double_separator():
    # mdBook's environment variables separate a table from its key with `__`.
    text = "Set MDBOOK_BOOK__TITLE or mdbook-book--title; MDBOOK_BOOK is another."
    assert counts("MDBOOK_BOOK__TITLE", text)["mdbookbooktitle"] == 2


def test_an_option_is_found_as_a_command_line_spells_it_and_names_no_code():
    text = "Use --check-status; check_status() and checkStatus are code."
    assert counts("what does --check-status do", text)["checkstatus"] == 1
    assert counts("check-status", text)["checkstatus"] == 3
    terms = query_terms("--check-status")
    assert not names_looked_up(terms) and not query_names(terms)
    assert names_looked_up(query_terms("check_status")) == {"checkstatus"}


_SCAN_ALTERNATIVES = ["ab", "abc", "b", "ba", "a[_-]*b", "c(?:a|ab)", "bc[iy]"]


@given(
    st.lists(st.sampled_from(_SCAN_ALTERNATIVES), min_size=1, max_size=5, unique=True),
    st.text(alphabet="abcxy_- \n", max_size=60),
)
def test_patterns_searched_apart_find_what_their_alternation_finds(alternatives, text):
    suffix = r"[^\W_]*"
    apart = tuple(re.compile(f"(?:{a}){suffix}") for a in alternatives)
    together = re.compile(f"(?:{'|'.join(alternatives)}){suffix}")

    found = [(m.start(), m.group()) for m in leftmost_first(apart, text)]

    assert found == [(m.start(), m.group()) for m in together.finditer(text)]


_DENSE_PIECES = [
    "needle",
    "Needle",
    "NEEDLES",
    "needled",
    "preneedle",
    "1needle",
    "hay",
    "HayStack",
    "haystacks",
    "needle_haystack",
    "needle-haystack",
    "x",
    "İ",
    " ",
    "\n",
    "_",
    "-",
]


def _lines_match_by_match(matcher: TermMatcher, text: str) -> dict[int, dict[str, int]]:
    found: dict[int, dict[str, int]] = {}
    for start, word in matcher.matches(text):
        on_line = found.setdefault(text.count("\n", 0, start) + 1, {})
        for key in matcher.keys_of(word):
            on_line[key] = on_line.get(key, 0) + 1
    return {line: keys for line, keys in found.items() if keys}


@pytest.mark.parametrize("query", ["needle", "needle haystack", "needle-haystack hay"])
@given(st.lists(st.sampled_from(_DENSE_PIECES), max_size=40), st.integers(1, 4))
def test_a_text_dense_with_matches_counts_alike_split(query, pieces, split_after):
    matcher = TermMatcher(query_terms(query))
    text = "".join(pieces)
    expected = _lines_match_by_match(matcher, text)

    with patch.object(matching, "SPLIT_AFTER", split_after):
        assert matcher.lines(text) == expected
        assert matcher.count(text) == matcher.tally(Counter(w for _, w in matcher.matches(text)))


def test_only_a_text_dense_with_matches_is_split(monkeypatch):
    matcher = TermMatcher(query_terms("needle haystack"))
    split: list[int] = []
    monkeypatch.setattr(TermMatcher, "_split_rest", lambda self, text, at, *_: split.append(at))
    sparse = ("needle " + "x" * matching.SPLIT_DENSITY) * (matching.SPLIT_AFTER + 5)
    dense = "needle " * (matching.SPLIT_AFTER + 5)

    matcher.lines(sparse)
    assert split == []
    matcher.lines(dense)
    assert split == [len("needle ") * matching.SPLIT_AFTER - 1]  # where that match ends


def test_few_and_many_terms_count_alike():
    text = "Scrolling the scrollbar routes a route; ScrollView rerouted; scroll_bar, routing"
    few = TermMatcher(query_terms("scroll route"))
    assert len(few._scan) == 2  # searched apart
    many = TermMatcher(query_terms("scroll route alpha bravo charlie"))
    assert len(many._scan) == 1  # one alternation
    assert few.count(text) == {k: v for k, v in many.count(text).items() if k in ("scroll", "rout")}
    assert few.count(text) == {"scroll": 3, "rout": 3}  # not scrollbar, not rerouted


def test_a_dotted_number_is_one_term_found_as_written():
    assert keys("what changed in version 0.28?") == ["chang", "version", "0.28"]
    assert keys("the v2.1.0 release") == ["releas", "2.1.0"]
    assert keys("3.14fr") == ["fr", "14fr"]  # a number with a unit is a name: its digits go with it
    text = "## 0.28.1\n## v0.28.0 (28th November)\n10.28 and 0.281 are others\n"
    assert counts("changes in 0.28", text) == {"0.28": 2}


def test_a_key_combination_is_one_term_found_as_written():
    # `ctrl+i` is the key, not `ctrl` alone: its letter is no term on its own.
    assert keys("why does my app see ctrl+i when I press tab?") == [
        "app",
        "see",
        "ctrl",
        "press",
        "tab",
        "ctrl+i",
    ]
    assert keys("Cmd+S does nothing") == ["cmd", "noth", "cmd+s"]
    assert keys("shift+tab moves back") == ["shift", "tab", "move", "back", "shift+tab"]
    text = "Press ++ctrl+i++ or CTRL+I; ctrl+insert and ctrl+j are others.\n"
    assert counts("ctrl+i", text) == {"ctrl": 4, "ctrl+i": 2}
    assert "ab+cd" not in keys("ab+cd")  # no modifier key: two words


def test_a_version_in_the_query_asks_about_news():
    paths = ["CHANGELOG.md", "docs/guide.md"]
    assert demoted_files(paths, keys("compact json bodies")) == {"CHANGELOG.md": POST_WEIGHT}
    assert demoted_files(paths, keys("compact json bodies in 0.28")) == {}


def test_british_and_american_spellings_are_one_term():
    text = "The color, the colour; centered, centred; initialize, initialised; gray, greyed."
    both = {"color": 2, "center": 2, "initi": 2, "gray": 2}
    assert counts("colour centre initialise grey", text) == both
    assert counts("color center initialize gray", text) == both
    assert counts("colors", "Colours, coloured text and a colourful border.") == {"color": 3}
    # Only listed words are respelt: `precise` still finds `precision`.
    assert counts("precise", "precision") == {"precis": 1}


def test_an_irregular_form_counts_as_its_word():
    # Snowball stems `drawn`, `written` and `children` apart from `draw`, `write` and
    # `child`: docs write the participle and the plural, questions the verb and the noun.
    text = "Widgets are drawn on layers. It was written in Python; it draws its children."
    assert counts("draw write child", text) == {"draw": 2, "write": 1, "child": 1}
    assert counts("drew written children", text) == {"draw": 2, "write": 1, "child": 1}
    assert counts("override", "Bindings can be overridden, or overrode.") == {"overrid": 2}
    assert counts("parenthesis", "Matching parentheses are inserted") == {"parenthesi": 1}
    assert counts("index", "the indices of the rows") == {"index": 1}
    # Only the forms listed: a word with another reading keeps its own (`left` is no
    # `leave`, `found` no `find`, `bound` no `bind`).
    assert counts("leave find bind", "left, found, bound") == {}


def test_an_abbreviation_counts_the_words_it_stands_for():
    text = "Set an environment variable: the env var, ENV; messages and a msg."
    assert counts("env var msg", text) == {"env": 3, "var": 2, "msg": 2}
    # Only the abbreviation a query spells is widened: `environment` does not count `ENV`.
    assert counts("environment", "ENV and env vars; the environment") == {"environ": 1}
    # A query spelling the abbreviation and its word counts each word once.
    assert counts("env environment", "the environment") == {"environ": 1}
    # A part of a name is no abbreviation: `ERR_CODE_17` does not count "error".
    assert counts("ERR_CODE_17", "an error") == {}
    # Only listed abbreviations: `cat` is no `category`.
    assert counts("cat", "a category") == {}
    # Two spellings of one abbreviation (flake8's `NOQA_INLINE_REGEXP` for "regex").
    assert counts("regex", "NOQA_INLINE_REGEXP, a regex, two regexes") == {"regex": 3}
    assert counts("regexp", "a regex, a RegExp") == {"regexp": 2}


def test_an_everyday_word_counts_the_technical_word_documentation_uses():
    # Users keep files in folders, docs in directories (Cargo's "home folder" question,
    # Textual's "hidden folders" for DirectoryTree); a popup is a modal dialog.
    text = "Config is read from the home directory and its parent directories."
    assert counts("home folder", text) == {"home": 1, "folder": 2}
    assert counts("folders", text) == {"folder": 2}
    assert counts("confirmation popup", "Push a modal screen, or a dialog.") == {"popup": 2}
    assert counts("modal", "Show a dialog.") == {"modal": 1}
    assert counts("dropdown", "A Select widget: select one option.") == {"dropdown": 2}
    # A keyboard shortcut is a key binding (Textual's "add a keyboard shortcut").
    bindings = "Bindings map keys to actions. Add a binding to BINDINGS."
    assert counts("keyboard shortcut", bindings) == {"shortcut": 3}
    assert counts("hotkeys", bindings) == {"hotkey": 3}
    # Only the everyday word is widened: a query's "directory" does not count "folder".
    assert counts("directory", "the folder") == {}


def test_a_file_extension_written_with_its_dot_is_no_abbreviation():
    # `.conf` and `*.conf` name files by their extension: "configuration" does not count.
    text = "the configuration file; files ending in .conf are INI: --map-syntax='*.conf:INI'"
    assert counts(".conf files", text) == {"conf": 2, "file": 2}
    assert counts("*.conf", text) == {"conf": 2}
    # Written as a word, it is still the abbreviation.
    assert counts("conf", text) == {"conf": 3}


def test_lines_say_which_terms_are_on_each_line():
    matcher = TermMatcher(query_terms("token budget"))
    assert matcher.lines("a token\nnothing\nbudget and tokens\n") == {
        1: {"token": 1},
        3: {"budget": 1, "token": 1},
    }


def scorer(documents: int = 100, frequency=None, average: float = 1000.0) -> Scorer:
    frequency = frequency or {"a": 10, "b": 10}
    return Scorer.for_scope(("a", "b"), documents, frequency, average)


def test_term_frequency_saturates():
    s = scorer()
    one, ten, hundred = (s.score({"a": n}, 1000) for n in (1, 10, 100))
    assert one < ten < hundred
    assert hundred - ten < ten - one
    assert s.score({"a": 5}, 1000) < s.score({"a": 1, "b": 1}, 1000)


def test_long_files_are_normalised_by_length():
    s = scorer()
    assert s.score({"a": 3}, 500) > s.score({"a": 3}, 5000)


def test_rarity_is_computed_over_every_file_of_the_scope():
    rare_in_a_big_scope = scorer(documents=1000, frequency={"a": 10, "b": 10})
    common_in_a_small_scope = scorer(documents=12, frequency={"a": 10, "b": 10})
    assert rare_in_a_big_scope.weights["a"] > common_in_a_small_scope.weights["a"]


def test_scores_lie_between_zero_and_one():
    s = scorer()
    assert 0 < s.score({"a": 1}, 10**6) < s.score({"a": 10**6, "b": 10**6}, 1) <= 1


@given(
    st.dictionaries(
        st.sampled_from([f"f{i:02d}.md" for i in range(30)]),
        st.tuples(
            st.dictionaries(st.sampled_from(["a", "b", "c"]), st.integers(1, 50), min_size=1),
            st.integers(1, 100_000),
        ),
        min_size=1,
    )
)
def test_lazy_ranking_yields_every_file_once_best_first(files):
    candidates = Candidates(
        frequencies={path: tf for path, (tf, _) in files.items()},
        lengths={path: length for path, (_, length) in files.items()},
        documents=200,
        total_bytes=200 * 3000,
    )
    s = candidates.scorer(("a", "b", "c"))
    ranked = list(rank(candidates, s, lambda path: None))
    assert sorted(r.path for r in ranked) == sorted(files)
    order = [(-r.score, r.path) for r in ranked]
    assert order == sorted(order)
    assert all(0 <= r.score <= 1 for r in ranked)


def ranked_by_sorting_everything(candidates, scorer, matcher):
    """`rank` written plainly: every file scored at its length (a test file's score scaled),
    best first, ties by path."""
    order = []
    for path, tf in candidates.frequencies.items():
        in_path = path_terms(path, matcher)
        role = TEST_FILE if is_test_file(path) else AS_IS
        role = DATED_POST if is_dated_post(path) else role
        contributions = scorer.contributions(tf, candidates.lengths[path], in_path)
        score, parts = weighted(contributions, role)
        order.append((-score, path, parts))
    return [(path, -negative, parts) for negative, path, parts in sorted(order)]


@given(
    st.lists(
        st.tuples(
            st.sampled_from(
                ["docs", "docs/token", "src/budget_rules", "notes", "tests", "docs/blog"]
            ),
            st.integers(0, 3),  # which shared counts
            st.integers(1, 100_000),
        ),
        min_size=1,
        max_size=40,
    )
)
def test_ranking_orders_and_scores_as_sorting_every_file_would(files):
    # Files with the same matches share one counts mapping, as ripgrep's output gives them.
    shared = [{"token": 2}, {"budget": 1, "token": 1}, {"budget": 7}, {"token": 1}]
    candidates = Candidates(documents=500, total_bytes=500 * 3000)
    for number, (folder, which, length) in enumerate(files):
        path = f"{folder}/f{number:02d}.md"
        candidates.frequencies[path] = shared[which]
        candidates.lengths[path] = length
    matcher = TermMatcher(query_terms("token budget"))
    s = candidates.scorer(("token", "budget"))
    ranked = [(r.path, r.score, r.contributions) for r in rank(candidates, s, len, matcher)]
    assert ranked == ranked_by_sorting_everything(candidates, s, matcher)


def test_test_files_are_told_by_their_folder_or_their_name():
    tests = [
        "tests/test_budget.py", "pkg/tests/helpers.py", "test/budget.js", "tests/README.md",
        "src/test_budget.py", "budget_test.py", "budget_test.go", "conftest.py",
        "web/__tests__/Budget.jsx", "web/budget.test.ts", "web/budget.spec.mjs",
        "src/BudgetTest.java", "spec/models/budget_spec.rb", "shop/tests.py",
        "test/budget_test.rb", "test/budget_test.exs", "tests/BudgetTest.php",
        "Budget.Tests/BudgetTests.cs", "Tests/BudgetTests.swift",
        "packages/pinia/test-dts/store.test-d.ts", "src/index.test-d.tsx",  # type tests
        "testing/python/approx.py", "src/jq_test.c", "net/url_test.cc", "base/file_unittest.cc",
        "pkg/testdata/input.go", "gcc/testsuite/loop.c", "tests/fixtures/app.py",
        "app/fixtures/users.py", "okhttp/src/jvmTest/kotlin/WebSocketRecorder.kt",
        "okhttp/src/commonTest/kotlin/Helpers.kt", "app/src/androidTest/java/Flow.java",
        "lib/src/testFixtures/kotlin/Fakes.kt", "test-utils/common/src/MainDispatcherTestBase.kt",
        "internal/testutil/server.go", "src/test_utils/mock.rs",
        # Perl's and git's `t/` folder, Perl's `*.t` files.
        "t/t6010-merge-base.sh", "t/helper/test-tool.c", "lib/Foo/t/basic.t", "xt/author.t",
        # Vim's `src/testdir/` and its `test_*.vim`; Vite's type tests in `__tests_dts__/`.
        "src/testdir/shared.vim", "runtime/test_plugin.vim", "src/node/__tests_dts__/config.ts",
        # Deno's test runner finds `*_test.ts` (Deno's standard library, Fresh).
        "encoding/base64_test.ts", "src/server/render_test.tsx", "lib/parse_test.js",
        # mypy's `test-data/` (its stubs define `TypedDict` as typeshed's do), `test_data/`.
        "test-data/unit/lib-stub/typing_extensions.pyi", "pkg/test_data/sample.py",
        # Koa's mock context and streams for its tests, in `test-helpers/`.
        "test-helpers/context.js", "src/test_helpers/stream.py", "lib/testhelpers/mock.go",
        # React Router names its tests `name-test.ts` (`integration/route-collisions-test.ts`).
        "integration/route-collisions-test.ts", "packages/router/flat-routes-test.tsx",
        "lib/parse-spec.js",
        # RSpec's and Cucumber's helpers, beside the specs and features they serve.
        "spec/support/config_options_helper.rb", "features/support/env.rb",
        "features/step_definitions/additional_cli_steps.rb",
        # httparty's: Cucumber's older `features/steps/`, RSpec's `spec/spec_helper.rb`.
        "features/steps/httparty_steps.rb", "spec/spec_helper.rb", "spec/rails_helper.rb",
        # vue-router's end-to-end tests and their helpers.
        "packages/router/e2e/specs/utils.ts", "e2e/modal/index.ts",
        # Jest's folders beside the code they test: mocks, fixtures, snapshots, test data
        # (Prometheus's `web/ui/react-app/src/__testdata__/testdata.ts`).
        "web/src/__testdata__/testdata.ts", "src/__mocks__/fs.js", "src/__fixtures__/a.ts",
        "src/__snapshots__/view.test.ts.snap", "lib/__testfixtures__/input.js",
        # The BSDs' `regress/` (tmux's 132 scripts, OpenSSH's, LibreSSL's).
        "regress/format-strings.sh", "lib/libc/regress/strtod.c",
    ]  # fmt: skip
    others = [
        "src/budget.py", "src/latest.py", "src/contest.py", "src/testing.py", "docs/testing.md",
        "spec/api.md", "specs/budget.md", "src/attestation/budget.py", "src/protest_test_plan.md",
        "src/testing_utils.c", "src/latest_test_results.md", "src/fixture.py",
        "okhttp/src/jvmMain/kotlin/Dispatcher.kt", "src/contest/Main.kt",
        "src/attest_utils/sign.go", "src/t.c", "docs/t.md", "src/part/main.t.go",
        "src/testdirs.c", "runtime/contest_plugin.vim", "src/__tests_data.ts",
        "src/latest-data/load.py", "src/test-database/schema.py", "src/latest_tests.tsx",
        "src/contest.ts", "src/latest-helpers/date.js", "src/latest.ts", "src/a-latest.ts",
        "lib/support/helpers.rb", "app/features/billing.rb", "lib/spec/support.rb",
        "app/features/steps.rb", "lib/spec_helper.rb",
        "src/e2e.ts", "src/e2eencrypt/keys.go",
    ]  # fmt: skip
    assert [path for path in tests if not is_test_file(path)] == []
    assert [path for path in others if is_test_file(path)] == []


def test_a_go_package_named_test_inside_the_module_is_no_test():
    # logrus' hooks/test/test.go is `package test`, the null logger and hook applications
    # import for their own tests: demoted as a test, it fell from first to seventh for
    # "null logger records entries". Go's tests are its `_test.go` files; a root `test/`
    # folder holds a project's own integration tests, and `tests/` (lazygit's) too.
    assert not is_test_file("hooks/test/test.go")
    assert not is_test_file("pkg/log/test/recorder.go")
    for path in (
        "hooks/test/test_test.go", "test/integration.go", "test/e2e/run.go",
        "pkg/integration/tests/bisect/basic.go", "hooks/test/testdata/input.go",
        "lib/test/helpers.py",
    ):  # fmt: skip
        assert is_test_file(path), path


def test_a_page_in_a_testing_folder_of_docs_is_about_testing_not_a_test():
    # Rust by Example's `src/testing/unit_testing.md` is the chapter "Unit testing"; it
    # scored as a test file (0.6) and came fourth for "unit testing". Django's
    # `docs/topics/testing/` is the same. Code in a `testing/` folder is test code.
    for page in ("src/testing/unit_testing.md", "docs/topics/testing/overview.txt"):
        assert not is_test_file(page), page
    for code in ("testing/python/approx.py", "internal/testing/helpers.go"):
        assert is_test_file(code), code
    assert is_test_file("tests/fixtures/README.md")


def demoted_files(paths: list[str], query_keys: list[str]) -> dict[str, float]:
    role_of = role_weigher(query_keys)
    return {path: role_of(path).weight for path in paths if role_of(path).weight < 1}


def test_test_files_weigh_less_unless_the_query_asks_about_tests():
    paths = ["src/budget.py", "tests/test_budget.py", "src/latest.py", "web/a.spec.ts"]
    demoted = {"tests/test_budget.py": TEST_FILE_WEIGHT, "web/a.spec.ts": TEST_FILE_WEIGHT}
    assert demoted_files(paths, keys("token budget")) == demoted
    for query in ("tests of the token budget", "budget testing", "budget spec", "fixture"):
        assert demoted_files(paths, keys(query)) == {}


def test_a_test_inside_a_name_asked_about_asks_about_no_tests():
    # `runTestFiles` is the name of code, not a question about tests.
    paths = ["src/runner.ts", "test/runner.test.ts"]
    demoted = {"test/runner.test.ts": TEST_FILE_WEIGHT}
    assert demoted_files(paths, sorted(asking_keys(query_terms("runTestFiles")))) == demoted
    assert demoted_files(paths, sorted(asking_keys(query_terms("runTestFiles tests")))) == {}


def test_the_class_of_a_member_asked_about_asks_about_no_tests():
    # pytest: `Pytester.runpytest` and `Fixture.execute` name a class and its method; as
    # words, `pytester` and `fixture` ask about tests, and the method's definition was
    # not looked up.
    paths = ["src/fixtures.py", "testing/test_fixtures.py"]
    demoted = {"testing/test_fixtures.py": TEST_FILE_WEIGHT}
    for query in ("Fixture.execute", "Pytester.runpytest"):
        assert demoted_files(paths, sorted(asking_keys(query_terms(query)))) == demoted, query
    helpers = "".join(
        f"def helper_{n}(fixture):\n    return fixture.execute_{n}()\n\n" for n in range(30)
    )
    text = (
        "def configure(parser):\n"
        '    """Register the fixture options: each fixture may execute once."""\n\n'
        + helpers
        + "class Fixture:\n    def execute(self, request):\n"
        '        """Return the value of this fixture, executing it if not cached."""\n'
        "        return self.func(request)\n"
    )
    cut = snippet(text, "src/fixtures.py", "Fixture.execute", max_chars=300)
    assert cut.text.startswith("class Fixture:\n    def execute(self, request):"), cut.text


def test_a_member_named_with_its_class_apart_is_served_at_its_definition():
    # pytest: `LineMatcher fnmatch_lines` served RunResult's docstring naming both
    # (":class:`LineMatcher` of stdout... `stdout.fnmatch_lines()`"), not the method.
    result = (
        "class Result:\n    def __init__(self, lines):\n"
        '        """The outcome: a LineMatcher of its lines, see fnmatch_lines()."""\n'
        "        self.lines = lines\n\n"
        + "".join(f"    def helper_{n}(self):\n        return {n}\n\n" for n in range(12))
    )
    matcher = (
        "class LineMatcher:\n    def __init__(self, lines):\n        self.lines = lines\n\n"
        + "".join(f"    def other_{n}(self):\n        return {n}\n\n" for n in range(12))
        + "    def fnmatch_lines(self, patterns):\n"
        '        """Check that the patterns match the lines, in order."""\n'
        "        return all(patterns)\n"
    )
    cut = snippet(result + matcher, "src/matching.py", "LineMatcher fnmatch_lines", max_chars=300)
    assert "    def fnmatch_lines(self, patterns):" in cut.text, cut.text
    assert "class Result:" not in cut.text, cut.text


def test_dated_posts_are_told_by_their_folder_or_their_name():
    posts = [
        "docs/blog/posts/faster-startup.md", "blog/2024-01-02-release.md", "_posts/a.markdown",
        "site/news/budget.rst", "CHANGELOG.md", "docs/changes.rst", "CHANGES", "HISTORY.rst",
        "NEWS.txt", "docs/release-notes/1.2.md", "RELEASE_NOTES.md", "changelog.d/42.md",
        "doc/en/announce/release-2.0.2.rst", "docs/releases/5.0.txt", "Doc/whatsnew/3.12.rst",
        "newsfragments/101.feature.rst", "changelog/14635.bugfix.rst",
        "docs/community/3.0-announcement.md", "docs/topics/release-announcement.rst",
        "docs/changelogs/changelog_3x.md", "docs/changelog_4x.md", "CHANGELOG-1.0.md",
        "Documentation/RelNotes/2.51.1.adoc", "RelNotes", "doc/relnotes/1.0.txt",
        # Older entries moved out: fmt's `doc/ChangeLog-old.md`, Jest's `CHANGELOG_PRE_v30.md`.
        "doc/ChangeLog-old.md", "CHANGELOG_PRE_v30.md", "CHANGES_OLD.rst", "HISTORY-archive.md",
        # A name in capitals, as a project's own files are: Node's `CHANGELOG_IOJS.md`.
        "doc/changelogs/CHANGELOG_IOJS.md", "CHANGES_LEGACY.txt",
        # A version's notes named for it: Vim's `runtime/doc/version9.txt`.
        "runtime/doc/version9.txt", "docs/version-2.1.md", "doc/version_8.2.rst",
        # The version first: the Rails Guides' `7_2_release_notes.md`.
        "guides/source/7_2_release_notes.md", "docs/3.0-changelog.md", "v2_changes.rst",
        # Any changelog's conventional name, in any kind of document: Rust's `RELEASES.md`,
        # a Ruby gem's `History.rdoc` or `CHANGELOG.rdoc`.
        "RELEASES.md", "History.rdoc", "CHANGELOG.rdoc", "NEWS.org", "ChangeLog",
    ]  # fmt: skip
    others = [
        "docs/guide/workers.md", "news/views.py", "blog/models.py", "docs/blogging.md",
        "src/changelog.py", "docs/history_of_budgets/intro.md", "README.md", "docs/posts.md",
        "src/releases/publish.py", "docs/releasing.md", "docs/announcements-policy.md",
        "docs/changelogs/upgrading_to_okhttp_4.md", "docs/news_feed.md",
        "docs/relnotes-tool.md", "docs/changelog-oldest-first.md", "docs/news-older.md",
        "docs/versioning.md", "docs/version.md", "src/version9.c", "docs/versions/api.md",
        "docs/changelog_guidelines.md", "NEWS_FEED.py", "docs/2fa_changes_explained.md",
        "docs/v2_migration.md",
        # A page about releases (Phoenix's guides/deployment/releases.md), and the release
        # process (Laravel's RELEASE.md).
        "guides/deployment/releases.md", "RELEASE.md",
    ]  # fmt: skip
    assert [path for path in posts if not is_dated_post(path)] == []
    assert [path for path in others if is_dated_post(path)] == []


def test_release_notes_named_whats_new_are_dated_posts():
    # gofiber/fiber's docs/whats_new.md, 3,100 lines of "In v3, we introduced ...", was served
    # in 11 of 15 questions about using Fiber, where the same text as CHANGELOG.md weighed
    # less; Python's `whatsnew/` folder already was a post.
    posts = [
        "docs/whats_new.md", "whats-new.md", "WHATSNEW.md", "doc/whatsnew.rst",
        "WHATS_NEW.md", "docs/whats-new-v3.md", "docs/WhatsNew.txt",
    ]  # fmt: skip
    others = ["src/whats_new.py", "docs/whats-new-dialog.md", "docs/whatsnewer.md"]
    assert [path for path in posts if not is_dated_post(path)] == []
    assert [path for path in others if is_dated_post(path)] == []


def test_a_changelogs_folder_holds_dated_posts_in_the_files_named_for_a_version():
    # astral-sh/uv keeps a changelog per minor version in `changelogs/0.4.x.md`; they ranked
    # as guides, first for a question about where tools are installed. okhttp's
    # `docs/changelogs/` keeps its upgrade guides beside its changelogs: not posts.
    posts = [
        "changelogs/0.4.x.md", "changelogs/0.11.x.md", "docs/changelogs/1.2.md",
        "changelogs/v3.md", "changelogs/2.0.0.rst", "changelogs/2024-01.md",
    ]  # fmt: skip
    others = [
        "docs/changelogs/upgrading_to_okhttp_4.md", "changelogs/README.md",
        "docs/changelogs/index.md", "src/changelogs/1.2.py", "docs/v2/intro.md",
    ]  # fmt: skip
    assert [path for path in posts if not is_dated_post(path)] == []
    assert [path for path in others if is_dated_post(path)] == []


def test_a_projects_plans_weigh_less_unless_the_query_asks_about_them():
    # Vim's runtime/doc/todo.txt (2,300 lines of work to do) ranked third for "run the same
    # command on every entry in the quickfix list"; Textual's docs/roadmap.md second for
    # making a color theme. A plan names what a question asks about, not how it is done.
    paths = ["runtime/doc/todo.txt", "TODO.md", "docs/roadmap.md", "ROADMAP", "docs/guide.md"]
    others = ["src/todo.py", "pages/common/todo-list.md", "docs/todos/intro.md"]
    assert demoted_files(paths + others, keys("make my own color theme")) == {
        path: POST_WEIGHT for path in paths[:4]
    }
    for query in ("todo for the quickfix list", "is a theme editor on the roadmap", "plans"):
        assert demoted_files(paths, keys(query)) == {}, query


def test_decision_records_weigh_less_unless_the_query_asks_about_decisions():
    # React Router's decisions/0001-use-blocker.md ("Date: 2023-01-17", "Status: accepted")
    # came first for "navigation blocker unsaved form", above the how-to page on blocking.
    paths = [
        "decisions/0001-use-blocker.md", "docs/adr/0002-lazy-routes.md",
        "architecture/decisions/0003-data.md", "docs/how-to/navigation-blocking.md",
    ]  # fmt: skip
    others = ["src/decisions/route.ts", "docs/decision-trees.md"]
    assert demoted_files(paths + others, keys("navigation blocker unsaved form")) == {
        path: POST_WEIGHT for path in paths[:3]
    }
    for query in ("why was it decided to add a blocker", "blocker design decision", "adr"):
        assert demoted_files(paths, keys(query)) == {}, query


def test_dated_posts_weigh_less_unless_the_query_asks_about_news():
    paths = ["docs/guide/budget.md", "docs/blog/posts/budget.md", "CHANGELOG.md", "tests/a.py"]
    demoted = {
        "docs/blog/posts/budget.md": POST_WEIGHT,
        "CHANGELOG.md": POST_WEIGHT,
        "tests/a.py": TEST_FILE_WEIGHT,
    }
    assert demoted_files(paths, keys("token budget")) == demoted
    for query in ("budget blog post", "token budget news", "budget in the changelog"):
        assert demoted_files(paths, keys(query)) == {"tests/a.py": TEST_FILE_WEIGHT}
    assert demoted_files(paths, keys("release notes of the budget")) == {
        "tests/a.py": TEST_FILE_WEIGHT
    }


def test_example_programs_weigh_less_unless_the_query_asks_for_examples():
    paths = [
        "src/router.py", "examples/router/main.go", "docs_src/first_steps/tutorial001.py",
        "_examples/basic.py", "samples/app.ts", "demo/run.py",
        "packages/playground/src/stores/cart.ts",
        # vue-router's `playground-file-based/`, an `examples-basic/`.
        "packages/playground-file-based/src/main.ts", "examples-basic/app.ts",
        # commander's example scripts, named without a suffix as commands are (`#!/usr/bin/env
        # node`): they ranked first, undemoted, above the library's lookup code.
        "examples/pm", "examples/pm-install",
        "examples/README.md", "examples/README", "examples/Makefile",
    ]  # fmt: skip
    demoted = {path: EXAMPLE_WEIGHT for path in paths[1:-3]}  # not the source, nor a doc
    assert demoted_files(paths, keys("router middleware")) == demoted
    for query in ("router example", "a sample router", "router demo", "router playground"):
        assert demoted_files(paths, keys(query)) == {}


def test_shell_completion_scripts_weigh_less_unless_the_query_asks_about_completion():
    # fd's contrib/completion/_fd and Task's completion/fish/task.fish repeat every
    # option's help text: they came first for code questions the Go and Rust code answers.
    # Celery's extra/zsh-completion/celery.zsh came second for a worker question.
    paths = [
        "contrib/completion/_fd", "completion/fish/task.fish", "completion/ps/task.ps1",
        "assets/completions/bat.bash.in", "extra/zsh-completion/celery.zsh",
        "extra/bash-completion/celery.bash", "etc/bash_completion.d/tool", "src/walk.rs",
    ]  # fmt: skip
    others = [
        "site/content/completions/bash.md", "clap_complete/src/aot/shells/bash.rs",
        "shell/completion.bash", "src/completions.go", "src/zsh-completion.go",
    ]  # fmt: skip
    assert demoted_files(paths + others, keys("skip hidden directories")) == {
        path: COMPLETION_WEIGHT for path in paths[:7]
    }
    for query in ("fish shell completion", "what does tab complete"):
        assert demoted_files(paths, keys(query)) == {}, query


def test_a_java_package_named_example_is_no_folder_of_examples():
    # A Flutter plugin's Android code lives in the package `com.example.ok_http`: dart-lang
    # /http's RedirectInterceptor.kt weighed 0.8 as an example program.
    plugin = "pkgs/ok_http/android/src/main/kotlin/com/example/ok_http/RedirectInterceptor.kt"
    paths = [plugin, "src/main/java/org/example/App.java", "com/example/Main.java"]
    assert demoted_files(paths, keys("redirect interceptor")) == {}
    assert demoted_files(["android/app/src/com/example/demo/Run.kt"], keys("run")) == {
        "android/app/src/com/example/demo/Run.kt": EXAMPLE_WEIGHT  # its own demo/ folder
    }


def test_declaration_files_weigh_less_unless_the_query_asks_about_types():
    paths = ["lib/hooks.js", "types/hooks.d.ts", "src/widgets/__init__.pyi", "src/app.ts"]
    demoted = {
        "types/hooks.d.ts": DECLARATIONS_WEIGHT,
        "src/widgets/__init__.pyi": DECLARATIONS_WEIGHT,
    }
    assert demoted_files(paths, keys("how are async hooks chained")) == demoted
    for query in ("hooks type definitions", "typescript hooks", "hook signature", "stub"):
        assert demoted_files(paths, keys(query)) == {}


def test_a_demotion_is_labelled_by_the_role_that_made_it():
    # A changelog kept under tests/: for a question about tests it is no test file to
    # demote, but it is still a dated post.
    role = role_weigher(keys("changes to the test fixtures"))("tests/CHANGELOG.md")
    _, parts = weighted({"fixtur": 0.4}, role)
    assert role.weight == POST_WEIGHT
    assert list(parts) == ["fixtur", POST_DEMOTION_LABEL]


def test_a_demoted_score_is_explained_by_parts_that_still_add_up_to_it():
    score, parts = weighted({"token": 0.3, "budget": 0.2}, TEST_FILE)
    assert score == 0.5 * 0.6
    assert parts[DEMOTION_LABEL] < 0
    assert abs(sum(parts.values()) - score) < 1e-12
    assert weighted({"token": 0.3}, AS_IS) == (0.3, {"token": 0.3})
    _, parts = weighted({"token": 0.3}, DATED_POST)
    assert list(parts) == ["token", POST_DEMOTION_LABEL]


PATHS = [
    "docs/token-budget.md",
    "src/TokenBudget.py",
    "docs/overbudget.md",
    "grimoires/loa/a2a/sprint-3/review.md",
    "docs/tokens/budgets/budget.md",
    "plain.md",
]


def test_the_terms_of_many_paths_are_those_of_each_path_alone():
    matcher = TermMatcher(query_terms("token budget review"))
    for paths in (PATHS, [*PATHS, "docs/ΣΊΣΥΦΟΣ/token.md", "İstanbul/budget.md"]):
        alone = {path: path_terms(path, matcher) for path in paths}
        assert paths_terms(paths, matcher) == {p: terms for p, terms in alone.items() if terms}
        assert all(t.named | t.inside == frozenset(matcher.count(p)) for p, t in alone.items())


@pytest.mark.parametrize(
    ("path", "query", "named", "inside"),
    [
        ("pages/common/tar.md", "extract a tar archive", {"tar"}, set()),
        ("pages/common/git-get-tar-commit-id.md", "extract a tar archive", set(), {"tar"}),
        # Every word of the name is the query's: `doc_comments.rs` for "doc comment".
        ("clap_derive/src/utils/doc_comments.rs", "doc comment summary", {"doc", "comment"}, set()),
        # A number orders pages; it is no word of the name (`03-$derived.md`).
        ("documentation/docs/02-runes/03-$derived.md", "a derived value", {"deriv"}, set()),
        ("plugins/git-commit/README.md", "enable the git plugin", {"plugin"}, {"git"}),
        ("plugins/git/README.md", "enable the git plugin", {"git", "plugin"}, set()),
        ("src/TokenBudget.py", "TokenBudget", {"token", "budget", "tokenbudget"}, set()),
        # A stopword is no other word of the name: Koa's `is-stream.js` is named for
        # "stream" as `stream.js` would be; `stream-utils.js` is not.
        ("lib/is-stream.js", "check whether a value is a stream", {"stream"}, set()),
        ("lib/stream-utils.js", "check whether a value is a stream", set(), {"stream"}),
    ],
)
def test_a_path_names_the_terms_its_folders_or_file_are_named_for(path, query, named, inside):
    terms = path_terms(path, TermMatcher(query_terms(query)))
    assert (terms.named, terms.inside) == (named, inside)


def test_a_file_named_for_the_query_ranks_above_one_whose_name_only_holds_a_term(make_project):
    # tldr: "extract a tar.gz archive" got atool.md, unp.md and git-get-tar-commit-id.md
    # before tar.md; the path field counted `tar` in either name alike.
    text = "Extract an archive with tar.\n"
    candidates = Candidates(documents=300, total_bytes=300 * 400)
    for path in ("pages/common/git-get-tar-commit-id.md", "pages/common/tar.md"):
        candidates.frequencies[path] = {"extract": 1, "archiv": 1, "tar": 1}
        candidates.lengths[path] = len(text)
    matcher = TermMatcher(query_terms("extract a tar archive"))
    s = candidates.scorer(tuple(term.key for term in matcher.terms))
    ranked = [entry.path for entry in rank(candidates, s, len, matcher)]
    assert ranked == ["pages/common/tar.md", "pages/common/git-get-tar-commit-id.md"]


def snippet(text: str, path: str, query: str, max_chars: int = 400, max_line_chars: int = 120):
    matcher = TermMatcher(query_terms(query))
    weights = {term.key: 1.0 for term in matcher.terms}
    return cut_snippet(
        text,
        path,
        matcher.lines(text),
        weights,
        max_chars=max_chars,
        max_line_chars=max_line_chars,
        matcher=matcher,
    )


def led_by(text: str) -> tuple[list[str], str]:
    """A passage of code as served, split into the lines leading it (the line of the
    definition holding it, and its docstring's first words), when a marker follows them,
    and the passage."""
    lines = text.split("\n")
    for number, line in enumerate(lines[:4]):
        if left_out_lines(line) is not None:
            return lines[:number], "\n".join(lines[number + 1 :])
    return [], text


def test_a_markdown_snippet_is_the_section_holding_the_matches():
    text = (
        "# Guide\n\nIntro about budgets.\n\n## Setup\n\nInstall it.\n\n"
        "## Token budget\n\nThe token budget caps context.\nTokens are counted.\n\n"
        "## Other\n\nUnrelated.\n"
    )
    cut = snippet(text, "docs/guide.md", "token budget", max_chars=120)
    assert cut.text == "## Token budget\n\nThe token budget caps context.\nTokens are counted."
    assert (cut.line_start, cut.line_end) == (9, 12)


def test_the_section_writing_the_querys_words_side_by_side_is_the_snippet():
    # Astro's sitemap page: "how do I add a sitemap" was answered from "Sitemap discovery"
    # (its heading says sitemap, and "add" is further on) over "Installation", whose
    # `npx astro add sitemap` is the answer.
    text = (
        "# Sitemap\n\n## Installation\n\nRun this in a terminal:\n\n"
        "```sh\nnpx astro add sitemap\n```\n\n"
        "## Sitemap discovery\n\nCrawlers find the sitemap through a link in the head.\n"
        "You can add the link by hand.\n"
    )
    cut = snippet(text, "docs/sitemap.md", "how do I add a sitemap", max_chars=120)
    assert "npx astro add sitemap" in cut.text and "discovery" not in cut.text
    # The other order is no phrase of the query's ("sitemap, add"): the heading wins.
    swapped = text.replace("add sitemap", "sitemap add")
    cut = snippet(swapped, "docs/sitemap.md", "add a sitemap", max_chars=120)
    assert cut.text.startswith("## Sitemap discovery\n")


def test_a_weak_word_more_does_not_outweigh_where_the_others_are_dense():
    # Devise's "how can I keep the messages in the right language": a section holding
    # the other words once each and a common word besides outranked the one holding
    # them throughout. A word of under a tenth of the query's weight is no reason.
    text = (
        "# Guide\n\n## Pages\n\nEach page has its own rules.\n"
        "Layout and navigation are described elsewhere in this guide.\n"
        "A cache sits in front of it; invalidation is covered below.\n\n"
        "## Expiry\n\nThe cache drops an entry by rules. Its invalidation:\n"
        "rules run on each write, and an entry of the cache past its lifetime\n"
        "by the rules is dropped on read; invalidation of the cache is cheap.\n\n"
        "## Other\n\nUnrelated.\n"
    )
    matcher = TermMatcher(query_terms("cache invalidation rules page"))
    weights = {"cach": 1.0, "invalid": 1.0, "rule": 1.0, "page": 0.2}
    assert {term.key for term in matcher.terms} == set(weights)
    lines = matcher.lines(text)
    cut = cut_snippet(
        text, "docs/guide.md", lines, weights, max_chars=260, max_line_chars=120,
        matcher=matcher,
    )  # fmt: skip
    assert cut.text.startswith("## Expiry\n")
    # A word weighing as much as the others is one: the section holding all four wins.
    cut = cut_snippet(
        text, "docs/guide.md", lines, {**weights, "page": 1.0}, max_chars=260,
        max_line_chars=120, matcher=matcher,
    )  # fmt: skip
    assert cut.text.startswith("## Pages\n")


def test_a_section_that_fits_is_widened_to_its_parent_sections():
    text = (
        "# Deploys\n\n## Rollback\n\nRoll back with the wave.\n\n"
        "### Rollback budget\n\nThe disruption budget applies.\n\n# Unrelated\n\n" + "x " * 200
    )
    cut = snippet(text, "a.md", "rollback budget", max_chars=200)
    assert cut.text.startswith("# Deploys\n\n## Rollback\n")
    assert cut.text.endswith("The disruption budget applies.")


def test_a_section_is_not_led_in_by_the_tail_of_the_section_before_it():
    intro = "Themes give an app its colors; this is about what they hold and how.\n" * 8
    text = (
        f'# Themes\n\n{intro}\n=== "nord"\n\n    ```{{.textual path="app.py"}}\n    ```\n\n'
        "## Changing the theme\n\nSet the app's theme attribute to change it.\n\n"
        "# Elsewhere\n\n" + "Unrelated words for a while.\n" * 20
    )
    cut = snippet(text, "design.md", "change the theme", max_chars=500)
    assert cut.text.startswith("## Changing the theme\n")


def test_the_lines_around_a_section_are_whole_paragraphs():
    def paragraph(words: str) -> str:
        return f"{words} line one of three.\n{words} line two of three.\n{words} the last.\n"

    paragraphs = [paragraph(f"Filler {n}") for n in range(6)]
    paragraphs.insert(3, paragraph("The rollback budget"))
    text = "\n".join(paragraphs)
    cut = snippet(text, "notes.txt", "rollback budget", max_chars=500)
    assert "The rollback budget the last." in cut.text
    blocks = cut.text.split("\n\n")
    assert all(block.count("\n") == 2 for block in blocks), cut.text


def test_headings_inside_code_fences_do_not_start_sections():
    text = "## Run it\n\n```bash\n# install first\npip install x\n```\n\nThen run x.\n"
    cut = snippet(text, "a.md", "install run")
    assert cut.text.startswith("## Run it")
    assert cut.text.endswith("Then run x.")


def test_a_code_snippet_holds_the_whole_function_with_the_matches():
    unrelated = "".join(f"\n\ndef unrelated_{i}():\n    return {i}\n" for i in range(30))
    text = (
        f"import os\n{unrelated}\n\n"
        "def retry_delay(attempt):\n    base = 2 ** attempt\n    return base + jitter()\n"
        f"{unrelated}"
    )
    cut = snippet(text, "src/retry.py", "retry delay jitter", max_chars=300)
    assert "def retry_delay(attempt):\n    base = 2 ** attempt\n    return base + jitter()" in (
        cut.text
    )
    assert len(cut.text) <= 300


SPREAD_SIGNATURE = (
    "class Retry:\n"
    "    def __init__(\n        self,\n        attempts: int = 3,\n"
    "        backoff: float = 0.5,\n    ) -> None:\n"
    '        """Retry a failed call with exponential jitter backoff."""\n'
    + "".join(f"        self.setting_{i} = {i}\n" for i in range(30))
)


def test_a_signature_closer_does_not_start_a_block_of_its_own():
    lines = SPREAD_SIGNATURE.split("\n")
    starts = [lines[span.start].strip() for span in code_blocks(lines)]
    assert ") -> None:" not in starts
    assert "def __init__(" in starts


def test_a_brace_on_its_own_line_opens_the_block_of_the_line_above():
    # PHP (PSR-12), C# and Java in the Allman style: a class's or a method's body opens
    # under its first line, which is where the block starts, with its doc comment.
    text = (
        "<?php\n\n/**\n * PSR-15 invocation strategy.\n */\n"
        "class RequestHandler implements InvocationStrategyInterface\n{\n"
        "    protected bool $append;\n\n"
        "    public function __construct(bool $append = false)\n    {\n"
        "        $this->append = $append;\n    }\n}\n"
    )
    lines = text.split("\n")
    starts = [lines[span.start].strip() for span in code_blocks(lines)]
    assert "{" not in starts
    assert "public function __construct(bool $append = false)" in starts
    assert len(code_blocks(lines)) == 3  # the doc comment, the class, the method


def test_a_brace_under_a_wrapped_parameter_list_opens_the_block_of_its_signature():
    # curl wraps a C function's parameters under its open parenthesis: the body's brace
    # sits under a line more indented than itself, and the block had started at the brace,
    # the function's name left out of every snippet cut from it.
    text = (
        "static int pool_count(struct pool *p)\n{\n  return p->count;\n}\n\n"
        "static bool pool_match_fully_connected(struct connection *conn,\n"
        "                                       struct pool_match *m)\n{\n"
        "  if(!conn_is_connected(conn))\n    return FALSE;\n  return TRUE;\n}\n\n"
        "int main(void)\n{\n  int x = f(1,\n          2);\n  {\n    x++;\n  }\n  return x;\n}\n"
    )
    lines = text.split("\n")
    starts = [span.start for span in code_blocks(lines)]
    assert 7 not in starts  # the body's brace
    assert 5 in starts  # its signature's first line
    # A brace under a statement that ended (`2);`) opens a block of its own.
    assert 17 in starts
    cut = snippet(text, "src/pool.c", "conn_is_connected", max_chars=400)
    assert cut.text.startswith("static bool pool_match_fully_connected("), cut.text


def test_a_brace_under_a_where_clause_opens_the_block_of_its_signature():
    # zoxide's `Fzf::env`: a Rust function's bounds in a `where` clause, its body's brace
    # under them; served from the brace, without the signature holding `key`.
    text = (
        "impl Fzf {\n"
        + "".join(f"    pub fn step{n}(&self) -> u32 {{\n        {n}\n    }}\n" for n in range(20))
        + "    pub fn env<K, V>(&mut self, key: K, val: V) -> &mut Self\n    where\n"
        "        K: AsRef<OsStr>,\n        V: AsRef<OsStr>,\n    {\n"
        "        self.0.env(key, val);\n        self\n    }\n\n"
        "    pub fn bounded<T>(&self, item: T) -> T\n    where T: Clone\n    {\n"
        "        item.clone()\n    }\n}\n"
    )
    lines = text.split("\n")
    starts = [lines[span.start].strip() for span in code_blocks(lines)]
    assert "{" not in starts and "where" not in starts and "where T: Clone" not in starts
    assert "pub fn env<K, V>(&mut self, key: K, val: V) -> &mut Self" in starts
    assert "pub fn bounded<T>(&self, item: T) -> T" in starts
    cut = snippet(text, "src/util.rs", "env key val", max_chars=400)
    assert "pub fn env<K, V>" in cut.text, cut.text


GO_ERRORS = (
    'package migrate\n\nimport "fmt"\n\n'
    "// ErrShortLimit is returned when a source has fewer migrations than asked for.\n"
    "type ErrShortLimit struct {\n\tShort uint\n}\n\n"
    "func (e ErrShortLimit) Error() string {\n"
    '\treturn fmt.Sprintf("limit %v short", e.Short)\n}\n\n'
    "type ErrDirty struct {\n\tVersion int\n}\n\n"
    "// Error says which version is dirty.\n"
    "func (e ErrDirty) Error() string {\n"
    '\treturn fmt.Sprintf("Dirty database version %v. Fix and force version.", e.Version)\n}\n\n'
    "type Migrate struct {\n\tversion int\n\tdirty   bool\n}\n\n"
    + "".join(
        f"// Step{n} applies a migration.\nfunc (m *Migrate) Step{n}() error {{\n"
        f"\tif m.dirty {{\n\t\treturn ErrDirty{{m.version}}\n\t}}\n\treturn nil\n}}\n\n"
        for n in range(4)
    )
)


def test_a_go_type_looked_up_is_served_with_the_methods_declared_after_it():
    # golang-migrate's "ErrDirty": `type ErrDirty struct { Version int }` was served
    # alone, without the `Error()` right under it that says "Dirty database version".
    text = GO_ERRORS
    cut = snippet(text, "migrate.go", "ErrDirty", max_chars=400)
    assert cut.text.startswith("type ErrDirty struct {"), cut.text
    assert "Dirty database version" in cut.text, cut.text
    assert "type Migrate struct" not in cut.text  # the next type is another definition
    # Only as far as the cap allows, whole methods.
    cut = snippet(text, "migrate.go", "ErrDirty", max_chars=60)
    assert "func (e ErrDirty)" not in cut.text


def test_a_window_in_a_long_function_starts_where_its_statement_does():
    # The answer is on the body's first line; the line before it closes the signature.
    cut = snippet(SPREAD_SIGNATURE, "src/retry.py", "exponential jitter backoff", max_chars=300)
    assert "exponential jitter backoff" in cut.text
    assert not cut.text.lstrip().startswith(")")


def test_a_section_over_the_cap_is_narrowed_to_its_best_window():
    filler = [f"line {i} of filler text that says nothing" for i in range(60)]
    lines = ["# Long", *filler[:30], "the needle is here", *filler[30:]]
    cut = snippet("\n".join(lines) + "\n", "long.md", "needle", max_chars=300)
    assert "the needle is here" in cut.text
    assert len(cut.text) <= 300


def test_a_long_line_is_clipped_around_its_match_with_a_marker():
    line = "x" * 2000 + " the needle " + "y" * 2000
    cut = snippet(line + "\n", "data.md", "needle", max_line_chars=120)
    assert "needle" in cut.text
    assert cut.text.startswith("[…]") and cut.text.endswith("[…]")
    assert len(cut.text) <= 140


def test_a_function_whose_signature_spans_lines_is_one_block_with_its_body():
    unrelated = "".join(f"\n\ndef unrelated_{i}():\n    return {i}\n" for i in range(30))
    body = "".join(f"    step_{i} = prepare({i})\n" for i in range(16))
    function = (
        "def retry_delay(\n"
        "    attempt: int,\n"
        "    base: float = 2.0,\n"
        ") -> float:\n"
        '    """Seconds to wait before the next attempt."""\n'
        f"{body}\n"
        "    return base**attempt + jitter()\n"
    )
    text = f"import os\n{unrelated}\n\n{function}{unrelated}"
    # The whole definition fits the cap: the snippet is all of it, signature and body,
    # not the signature widened with some of the lines after it.
    cut = snippet(text, "src/retry.py", "retry delay attempt jitter", max_chars=600)
    assert cut.text.startswith("def retry_delay(\n")
    assert cut.text.endswith("    return base**attempt + jitter()")


TITLES = {  # a document's title, then two sections' titles, in each format
    "docs/workers.md": ("# Workers", "## Cancelling workers", "## Thread workers"),
    "docs/workers.rst": (
        "Workers\n=======",
        "Cancelling workers\n------------------",
        "Thread workers\n--------------",
    ),
    "docs/workers.adoc": ("= Workers", "== Cancelling workers", "== Thread workers"),
}


@pytest.mark.parametrize("path", TITLES)
def test_a_section_titled_for_the_query_wins_over_one_that_only_mentions_it(path: str):
    page, cancelling, thread = TITLES[path]
    text = (
        f"{page}\n\n"
        f"{cancelling}\n\nStop one early with its cancel method: it exits at its\n"
        "next await, and its state says so.\n\n"
        f"{thread}\n\nCancel a worker? A thread worker's cancel waits: worker code\n"
        "checks for a cancel.\n\n"
    )
    cut = snippet(text, path, "cancel worker", max_chars=120)
    assert cut.text.startswith(cancelling)


def test_a_term_in_every_paragraph_of_a_file_does_not_decide_the_section():
    # `reactive` is on every paragraph of this page; `recompose` only where the answer is.
    paragraphs = [f"A reactive attribute can do thing number {i} for you." for i in range(12)]
    paragraphs.insert(7, "Set recompose=True so a change to the attribute rebuilds the widget.")
    paragraphs.insert(3, "A reactive reactive reactive value, reactive again and reactive.")
    text = "\n\n".join(paragraphs) + "\n"
    cut = snippet(text, "notes.txt", "reactive recompose", max_chars=100)
    assert "recompose=True" in cut.text


def test_a_long_line_is_clipped_where_most_of_the_query_is_not_at_its_first_match():
    # A paragraph written on one line: a common query word opens it, the answer is at
    # its end, where the rarer words are.
    line = (
        "The input widget posts a message. "
        + "Some words about other things entirely. " * 20
        + "Wrap the assignment in the prevent context manager to suppress that message."
    )
    cut = snippet(
        line + "\n", "docs/events.md", "input message prevent suppress", max_line_chars=200
    )
    assert "prevent context manager to suppress" in cut.text
    assert cut.text.startswith("[…]")
    assert len(cut.text) <= 220


def test_a_line_only_a_little_over_the_cap_is_served_whole():
    # Cutting a few characters saves nothing worth losing the end of the sentence for.
    line = "Intro words " * 6 + "and the answer ends with the prevent context manager."
    assert 120 < len(line) <= 144
    cut = snippet(line + "\n", "docs/events.md", "intro prevent", max_line_chars=120)
    assert cut.text == line


def test_a_clipped_line_is_cut_between_words():
    line = " ".join(f"word{i:03d}" for i in range(300)) + " needle " + "tail " * 300
    cut = snippet(line + "\n", "docs/a.md", "needle", max_line_chars=120)
    inner = cut.text.removeprefix("[…]").removesuffix("[…]")
    assert "needle" in inner
    assert inner.startswith(" ") and inner.endswith(" ")
    assert all(word.startswith(("word", "needle", "tail")) for word in inner.split())


def test_a_class_too_long_to_serve_is_answered_by_its_definition_and_docstring():
    filler = "".join(
        f"        self.setting_{i} = configure_setting({i}, strict=True)\n" for i in range(40)
    )
    text = (
        "import math\n\n\n"
        "class Number(Validator):\n"
        '    """Validator that checks the value is a number, with an optional range."""\n'
        "\n"
        "    def __init__(self) -> None:\n"
        f"{filler}"
        "\n"
        "    def describe(self) -> str:\n"
        "        # Explains what went wrong, for the person typing into the field.\n"
        '        message = "the value typed into the field must be a number"\n'
        '        return message + " within the range given to this validator"\n'
    )
    cut = snippet(text, "src/validation.py", "number validator range", max_chars=600)
    assert (
        'class Number(Validator):\n    """Validator that checks the value is a number' in cut.text
    )


def test_a_clipped_line_keeps_its_indentation_when_its_start_is_kept():
    line = "        needle = " + " + ".join(f"part_{i}" for i in range(80))
    cut = snippet(f"def f():\n{line}\n", "src/a.py", "needle", max_line_chars=120)
    assert "\n        needle = part_0" in cut.text
    assert cut.text.endswith("[…]")


def _filler(label: str, paragraphs: int) -> str:
    return "".join(f"Paragraph {i} of the {label} says nothing.\n\n" for i in range(paragraphs))


TEXT_AREA_PAGE = (
    "# Text area\n\nA widget for editing text.\n\n"
    "## Code editing\n\nThe code editor turns on line numbers; the tab key inserts an indent.\n\n"
    f"## History\n\n{_filler('history', 12)}"
    "## Tab behavior\n\nThe tab key moves focus by default. Set tab_behavior to indent.\n\n"
    f"## Themes\n\n{_filler('themes', 12)}"
)


def test_a_snippet_adds_the_next_best_passage_from_elsewhere_when_the_first_leaves_room():
    cut = snippet(TEXT_AREA_PAGE, "docs/text_area.md", "tab key indent editor", max_chars=500)
    shown = cut.text.split("\n")
    markers = [i for i, line in enumerate(shown) if left_out_lines(line)]
    assert len(markers) == 1, cut.text
    first, second = shown[: markers[0]], shown[markers[0] + 1 :]
    assert "the tab key inserts an indent" in "\n".join(first)
    assert "## Tab behavior" in second
    assert "The tab key moves focus by default. Set tab_behavior to indent." in second
    assert len(cut.text) <= 500
    # Every line shown is the file's line at its number; the marker names those between.
    lines = TEXT_AREA_PAGE.split("\n")
    left_out = left_out_lines(shown[markers[0]])
    assert lines[cut.line_start - 1 : left_out[0] - 1] == first
    assert lines[left_out[1] : cut.line_end] == second


def test_no_second_passage_when_the_rest_of_the_file_holds_less_than_half_of_the_first():
    cut = snippet(TEXT_AREA_PAGE, "docs/text_area.md", "code editor line numbers", max_chars=400)
    assert not any(left_out_lines(line) for line in cut.text.split("\n"))
    assert "line numbers" in cut.text


def test_no_second_passage_when_the_first_fills_the_cap():
    cut = snippet(TEXT_AREA_PAGE, "docs/text_area.md", "tab key indent editor", max_chars=150)
    assert not any(left_out_lines(line) for line in cut.text.split("\n"))
    assert len(cut.text) <= 150


def test_a_second_passage_right_after_the_first_is_joined_to_it_without_a_marker():
    text = (
        f"{_filler('intro', 12)}"
        "Retry the upload after a delay.\n\n"
        # One line too long to widen the first passage by, short enough to be the second.
        "The delay doubles with each upload retry, up to a minute; then the upload stops for "
        "good, the queue reports it to whoever asked for the upload, and the file is left in "
        "place for a later attempt by hand, with its partial upload kept beside it on disk.\n\n"
        f"{_filler('outro', 12)}"
    )
    cut = snippet(text, "notes.txt", "upload retry delay", max_chars=600, max_line_chars=400)
    assert not any(left_out_lines(line) for line in cut.text.split("\n"))
    assert "Retry the upload after a delay.\n\nThe delay doubles" in cut.text
    lines = text.split("\n")
    assert cut.text == "\n".join(lines[cut.line_start - 1 : cut.line_end])


def test_a_table_of_contents_is_no_second_passage():
    # A README's contents list names every section: it holds the query's words, and
    # points at the answer rather than giving it.
    text = (
        "# Tool\n\n## Contents\n\n"
        "* [Install](#install)\n* [Search compressed files](#compressed)\n"
        "* [Colours](#colours)\n* [Licence](#licence)\n\n"
        f"## Install\n\n{_filler('install', 10)}"
        "## Search compressed files\n\nPass `-z` to search compressed files: gzip, xz "
        "and bzip2 archives are decompressed first.\n\n"
        f"## Colours\n\n{_filler('colours', 10)}"
    )
    cut = snippet(text, "README.md", "search compressed files", max_chars=700)
    assert "Pass `-z` to search compressed files" in cut.text
    assert "[Search compressed files](#compressed)" not in cut.text
    assert not any(left_out_lines(line) for line in cut.text.split("\n"))


EXPRESS_STYLE = (
    "/**\n * Clear cookie `name`.\n *\n * @param {String} name\n * @public\n */\n\n"
    "res.clearCookie = function clearCookie(name, options) {\n"
    "  const opts = { path: '/', ...options, expires: new Date(1)};\n"
    "  delete opts.maxAge\n\n"
    "  return this.cookie(name, '', opts);\n};\n\n"
    "/**\n * Set cookie `name` to `value`, with the given `options`.\n *\n"
    " * Options:\n *\n *    - `maxAge`   max-age in milliseconds\n"
    " *    - `signed`   sign the cookie\n *\n * @param {String} name\n * @public\n */\n\n"
    "res.cookie = function (name, value, options) {\n"
    "  var opts = { ...options };\n  var secret = this.req.secret;\n\n"
    "  this.append('Set-Cookie', serialize(name, String(value), opts));\n\n"
    "  return this;\n};\n"
)


def test_a_doc_comment_a_blank_line_above_a_definition_is_its_lead_in():
    lines = EXPRESS_STYLE.split("\n")
    starts = {lines[span.start] for span in code_blocks(lines)}
    assert starts == {"/**"}
    cut = snippet(EXPRESS_STYLE, "lib/response.js", "set cookie value options", max_chars=600)
    assert cut.text.startswith("/**\n * Set cookie `name` to `value`")
    assert "res.cookie = function (name, value, options) {" in cut.text


def test_a_block_comment_without_stars_inside_is_its_definitions_lead_in():
    # starship's `parse_color_string`: a `/** ... */` whose inner lines have no ` * `; the
    # passage started at the lone `*/`, the comment saying what the function parses left
    # out.
    helpers = "".join(
        f"pub fn helper_{n}(x: u32) -> u32 {{\n    x.wrapping_mul({n})\n}}\n\n" for n in range(12)
    )
    text = (
        f"{helpers}/** Parse a string that names a colour, None when it is not one.\n"
        " Three forms are accepted:\n  - #RRGGBB (a hash and six hexadecimal digits)\n"
        "  - name (a colour of the palette)\n*/\n"
        "pub fn parse_color(text: &str) -> Option<u8> {\n    let hex = text.strip_prefix('#')?;\n"
        "    u8::from_str_radix(hex, 16).ok()\n}\n"
    )
    lines = text.split("\n")
    starts = {lines[span.start] for span in code_blocks(lines)}
    assert "*/" not in starts
    cut = snippet(text, "src/color.rs", "parse color hex", max_chars=600)
    assert cut.text.startswith("/** Parse a string that names a colour"), cut.text


def test_a_go_doc_comments_example_does_not_cost_it_its_first_sentence():
    # testify's `Same`: its summary, a blank `//`, an indented example and a blank `//`
    # made a lead of four lines, over the limit of three, and the window started at the
    # second paragraph, without the sentence naming the function.
    def asserting(name: str, verb: str) -> str:
        return (
            f"// {name} asserts that two pointers {verb} the same object.\n//\n"
            f"//\tassert.{name}(t, ptr1, ptr2)\n//\n"
            "// Both arguments must be pointer variables. Pointer variable sameness is\n"
            "// determined based on the equality of both type and value.\n"
            f"func {name}(t TestingT, expected, actual interface{{}}) bool {{\n"
            "\tsame, ok := samePointers(expected, actual)\n\tif !ok {\n"
            '\t\treturn Fail(t, "Both arguments must be pointers")\n\t}\n'
            '\tif !same {\n\t\treturn Fail(t, fmt.Sprintf("Not same: %p %p", expected, actual))\n'
            "\t}\n\treturn true\n}\n\n"
        )

    text = (
        "package assert\n\n"
        + asserting("Same", "reference")
        + asserting("NotSame", "do not reference")
        + "// samePointers tells if two generic interface objects are pointers of the same\n"
        "// type pointing to the same object.\n"
        "func samePointers(first, second interface{}) (same bool, ok bool) {\n"
        "\tfirstPtr, secondPtr := reflect.ValueOf(first), reflect.ValueOf(second)\n"
        "\tif firstPtr.Kind() != reflect.Ptr || secondPtr.Kind() != reflect.Ptr {\n"
        "\t\treturn false, false // not both are pointers\n\t}\n"
        "\treturn first == second, true\n}\n"
    )
    query = "Does the equality check compare pointers by their address or by what they point to?"
    cut = snippet(text, "assert/assertions.go", query, max_chars=800)
    assert "// Both arguments" in cut.text
    assert cut.text.startswith("// Same asserts that two pointers"), cut.text


def test_a_constant_looked_up_among_constants_is_served_from_its_line():
    # isort's settings.py: MAX_CONFIG_SEARCH_DEPTH in a run of constants with no blank
    # line between them, a paragraph shorter than the cap; the function using it was
    # served instead.
    constants = "".join(f'SETTING_{n}: str = "value {n}"\n' for n in range(12))
    user = "".join(
        f"        config_{n} = search_config(CONFIG_SOURCES, STOP_CONFIG_SEARCH_ON_DIRS, {n})\n"
        for n in range(6)
    )
    text = (
        f"import os\n\n{constants}MAX_CONFIG_SEARCH_DEPTH: int = 25  # parents searched\n"
        'STOP_CONFIG_SEARCH_ON_DIRS = (".git", ".hg")\nCONFIG_SOURCES = ("setup.cfg",)\n'
        f"{constants.replace('SETTING', 'OTHER')}\n\n"
        "def _find_config(path):\n    tries = 0\n"
        "    while tries < MAX_CONFIG_SEARCH_DEPTH:\n"
        f"{user}        tries += 1\n    return path\n"
    )
    cut = snippet(text, "isort/settings.py", "MAX_CONFIG_SEARCH_DEPTH", max_chars=800)
    assert cut.text.startswith("MAX_CONFIG_SEARCH_DEPTH: int = 25"), cut.text


@pytest.mark.parametrize("max_chars", [1000, 1200, 1400])
def test_code_context_never_reaches_back_into_the_block_above(max_chars):
    # The room left after the definition is no reason to show the end of the one before,
    # in a module longer than half the cap.
    module = EXPRESS_STYLE + "".join(f"\nres.other{n} = function () {{}};\n" for n in range(8))
    assert len(module) > max_chars / 2
    cut = snippet(module, "lib/response.js", "set cookie value options", max_chars)
    assert cut.text.startswith("/**\n * Set cookie `name` to `value`")
    assert "clearCookie" not in cut.text


def test_a_module_no_longer_than_half_the_cap_is_served_whole():
    # multer's lib/counter.js, 570 characters: "pending writes counter zero" served one of
    # its functions, not `decrement`, which brings the count to zero.
    assert len(EXPRESS_STYLE) <= 1400 / 2
    cut = snippet(EXPRESS_STYLE, "lib/response.js", "set cookie value options", 1400)
    assert cut.text == EXPRESS_STYLE.rstrip("\n"), cut.text
    # (A name looked up is served at its definition, not with the module around it:
    # test_a_passage_of_code_does_not_end_on_the_comment_heading_the_definitions_below.)


REQUESTS_UTILS = (
    "def get_environ_proxies(url):\n    return {}\n\n\n"
    'def default_user_agent(name: str = "python-requests") -> str:\n'
    '    """\n    Return a string representing the default user agent.\n\n'
    '    :rtype: str\n    """\n    return f"{name}/{__version__}"\n\n\n'
    "def parse_header_links(value: str) -> list[dict[str, str]]:\n"
    '    """Return a list of parsed link headers proxies.\n\n'
    "    i.e. Link: <http:/.../front.jpeg>; rel=front; type=image/jpeg\n\n"
    '    :rtype: list\n    """\n\n'
    "    links: list[dict[str, str]] = []\n\n"
    + "".join(f"    step{i} = links.append({i})\n" for i in range(30))
    + "    return links\n"
)


def test_code_context_after_a_definition_does_not_start_the_next_one():
    # requests' "default user agent": the room left after default_user_agent was filled
    # with parse_header_links' signature and docstring, cut off before its body.
    cut = snippet(REQUESTS_UTILS, "src/requests/utils.py", "default user agent", 1200)
    assert cut.text.startswith("def default_user_agent"), cut.text
    assert "parse_header_links" not in cut.text, cut.text


def test_code_context_before_a_window_stays_inside_its_function():
    body = "".join(f"  step{i} = prepare({i});\n" for i in range(40))
    text = (
        "function other() {\n  return 1;\n}\n\n"
        "function upload(file) {\n  var size = file.size;\n\n"
        f"{body}\n  retryUpload(file, delay);\n  return size;\n}}\n"
    )
    cut = snippet(text, "lib/upload.js", "retry upload delay", max_chars=1200)
    assert "retryUpload(file, delay);" in cut.text
    assert "function other" not in cut.text


def test_a_window_that_starts_inside_a_section_does_not_run_into_the_next():
    # The first section ends with a rare query word in a code block; the next section is
    # about the rest of the question. A window across them would open on the end of a
    # code block.
    text = (
        "# FAQ\n\n## Alpha\n\n"
        f"{_filler('alpha', 10)}"
        "```\n$ tool --ctrl\n```\n\n"
        "## Colour settings\n\nThe terminal colour can be set.\n\n"
        f"{_filler('colour', 20)}"
    )
    cut = snippet(text, "FAQ.md", "ctrl terminal colour", max_chars=300)
    assert cut.text.startswith("## Colour settings\n\nThe terminal colour can be set.")


def test_a_window_starts_at_the_heading_of_its_matches_not_at_an_earlier_one():
    filler = "".join(f"Filler paragraph {i} says nothing at all.\n\n" for i in range(40))
    text = (
        "Guide\n=====\n\nIntro text here.\n\nSetup\n-----\n\nInstall it with pip.\n\n"
        f"Token budget\n------------\n\nThe token budget caps context.\n\n{filler}"
    )
    cut = snippet(text, "docs/guide.rst", "token budget", max_chars=600)
    assert cut.text.startswith("Token budget\n------------\n\nThe token budget caps context.")


def test_a_window_does_not_open_on_a_parent_heading_before_its_section():
    text = "# Guide\n\nIntro.\n\n## Limits\n\nThe token budget caps context.\n\n" + "".join(
        f"Filler paragraph {i} says nothing.\n\n" for i in range(40)
    )
    cut = snippet(text, "docs/guide.md", "token budget", max_chars=400)
    assert "The token budget caps context." in cut.text
    assert "Intro." not in cut.text


def test_translated_pages_weigh_less_unless_the_query_is_in_another_language():
    paths = [
        "docs/en/docs/cors.md", "docs/zh-CN/选项.md", "docs/es/docs/cors.md",
        "README.md", "README_zh-CN.md", "docs/it/index.md", "src/de/cors.py",
    ]  # fmt: skip
    demoted = {
        "docs/zh-CN/选项.md": TRANSLATION_WEIGHT,
        "docs/es/docs/cors.md": TRANSLATION_WEIGHT,
        "README_zh-CN.md": TRANSLATION_WEIGHT,
    }
    assert demoted_files(paths, keys("allow cors origins")) == demoted
    # A word no English query spells (`asíncronas`, `选项`): the query may be theirs.
    assert demoted_files(paths, keys("pruebas asíncronas")) == {}
    assert demoted_files(paths, keys("选项 required")) == {}
    _, parts = weighted({"cors": 0.4}, role_weigher(keys("allow cors"))("docs/es/docs/cors.md"))
    assert "(translation)" in parts


def test_a_licence_or_code_of_conduct_weighs_less_unless_the_query_asks_about_it():
    paths = [
        "LICENSE", "LICENSE-APACHE", "docs/LICENCE.txt", "COPYING", "NOTICE",
        "CODE_OF_CONDUCT.md", "docs/paging.md", "src/license.py", "docs/notice_board.md",
        "licenses/bootstrap.md", "LICENSES/MIT.txt", "src/licenses/check.py",
    ]  # fmt: skip
    paperwork = [
        "LICENSE", "LICENSE-APACHE", "docs/LICENCE.txt", "COPYING", "NOTICE",
        "licenses/bootstrap.md", "LICENSES/MIT.txt",
    ]  # fmt: skip
    demoted = dict.fromkeys([*paperwork, "CODE_OF_CONDUCT.md"], PAPERWORK_WEIGHT)
    assert demoted_files(paths, keys("how does paging work")) == demoted
    for query in ("which license", "copyright holders", "report a conduct violation"):
        assert demoted_files(paths, keys(query)) == {}
    _, parts = weighted({"work": 0.4}, role_weigher(keys("paging work"))("LICENSE"))
    assert "(licence or conduct)" in parts


def _method_with_long_docstring(body_lines: int) -> str:
    filler = "".join(f"    def unrelated_{i}(self):\n        return {i}\n\n" for i in range(20))
    body = "".join(f"        self.step_{i} = compute_step({i})\n" for i in range(body_lines))
    return (
        f"class Scheduler:\n{filler}"
        "    @property\n"
        "    def current_wave(self) -> int:\n"
        '        """The wave now running.\n\n'
        "        Waves run one after another, each on its own hosts.\n"
        "        A wave starts when the one before it is healthy.\n\n"
        "        The disruption budget caps how many hosts one wave drains.\n"
        '        """\n'
        f"{body}        return self._wave\n\n{filler}"
    )


def test_a_code_passage_does_not_start_inside_a_docstring_when_its_definition_fits():
    text = _method_with_long_docstring(body_lines=40)
    cut = snippet(text, "src/scheduler.py", "disruption budget drains", max_chars=900)
    assert "The disruption budget caps" in cut.text
    # led by its class's line (the class has no docstring)
    assert cut.text.startswith("class Scheduler:\n[lines 2-"), cut.text
    assert "]\n    @property\n    def current_wave(self) -> int:" in cut.text, cut.text
    assert len(cut.text) <= 900


def test_a_code_passage_does_not_end_inside_a_call_when_its_end_fits():
    filler = "".join(f"def unrelated_{i}():\n    return {i}\n\n\n" for i in range(20))
    text = (
        f"{filler}def drain(hosts):\n"
        '    """Drain hosts within the disruption budget."""\n'
        "    plan = schedule(\n        hosts,\n\n"
        + "".join(f"        option_{i}=True,\n" for i in range(30))
        + "    )\n\n"
        + "".join(f"    plan.step_{i} = {i}\n" for i in range(40))
        + f"    return plan\n\n\n{filler}"
    )
    cut = snippet(text, "src/drain.py", "disruption budget", max_chars=1500)
    assert "Drain hosts within the disruption budget." in cut.text
    assert cut.text.endswith("        option_29=True,\n    )"), cut.text


def test_a_code_passage_that_cannot_close_a_condition_ends_before_it():
    # vitest's runtime/runners/test.ts: the cap full, a passage ended on `    if (`, the
    # condition cut off.
    text = (
        "export class Runner {\n"
        "  onAfterTry(test: Test): void {\n"
        "    const state = test.context.expect.getState()\n"
        "    const calls = state.assertionCalls\n"
        "    const pending = state.pendingCalls\n"
        "    const total = pending + calls\n"
        "    if (\n      calls !== pending\n      && total !== 0\n    ) {\n"
        "      throw state.error()\n    }\n  }\n}\n"
    )
    cut = snippet(text, "src/runner.ts", "expect test context state", max_chars=240)
    assert "test.context.expect.getState()" in cut.text, cut.text
    assert cut.text.startswith("export class Runner {\n  onAfterTry(test: Test)"), cut.text
    assert "if (" not in cut.text, cut.text  # (it ends above, the class's line shown)


def test_a_code_passage_does_not_end_on_a_line_opening_a_block_it_cuts():
    # uvicorn's lifespan/on.py: the cap full, a passage from the middle of startup() ended
    # on `if self.config.lifespan == "auto":`, the message under it, which answered, cut.
    text = (
        "import logging\n\n\nclass Runner:\n    async def startup(self):\n"
        "        await self.startup_event.wait()\n"
        '        if self.startup_failed or (self.error_occured and self.config.mode == "on"):\n'
        '            self.logger.error("Application startup failed. Exiting.")\n'
        "        else:\n"
        '            self.logger.info("Application startup complete.")\n\n'
        "    async def main(self):\n        try:\n"
        "            await self.app(self.scope, self.receive, self.send)\n"
        "        except BaseException as exc:\n            self.error_occured = True\n"
        '            if self.config.mode == "auto":\n'
        '                msg = "The startup protocol appears unsupported by this app."\n'
        "                self.logger.info(msg)\n            else:\n"
        '                self.logger.error("Exception in the startup protocol", exc_info=exc)\n'
        "        finally:\n            self.startup_event.set()\n"
    )
    query = "what happens when my app raises an error at startup and mode is auto"
    for cap in range(560, 700, 20):
        cut = snippet(text, "worker.py", query, max_chars=cap)
        last = cut.text.rstrip().split("\n")[-1]
        assert not last.rstrip().endswith(":"), (cap, cut.text)
        assert "The startup protocol appears unsupported" in cut.text, (cap, cut.text)


def test_a_code_passage_shown_alone_runs_on_into_the_long_paragraph_after_it():
    # pino's transport-stream.js for "load transport file": the function's doc comment and
    # first lines, down to `const toLoad = ...`, were served and most of the cap went
    # unused; the next paragraph, too long to take whole, held the answer.
    branches = "".join(
        f"    }} else if (toLoad.endsWith('.ext{n}')) {{\n      fn = realRequire(target + {n})\n"
        for n in range(30)
    )
    text = (
        "'use strict'\n\nmodule.exports = loadTransportStreamBuilder\n\n"
        "/**\n * Loads & returns a function to build transport streams\n"
        " * @param {string} target\n */\n"
        "async function loadTransportStreamBuilder (target) {\n  let fn\n  try {\n"
        "    const toLoad = target.startsWith('file://') ? target : 'file://' + target\n\n"
        "    if (toLoad.endsWith('.ts') || toLoad.endsWith('.cts')) {\n"
        "      fn = realRequire(decodeURIComponent(target))\n"
        + branches
        + "    }\n  } catch (error) {\n    throw error\n  }\n  return fn\n}\n"
    )
    cut = snippet(text, "lib/transport-stream.js", "load transport file", max_chars=1500)
    assert "async function loadTransportStreamBuilder (target) {" in cut.text, cut.text
    assert "if (toLoad.endsWith('.ts') || toLoad.endsWith('.cts')) {" in cut.text, cut.text
    assert not cut.text.rstrip().endswith("{"), cut.text


def test_a_heading_alone_is_never_the_second_passage():
    # The title holds a query word; the text under it says nothing of the query, and is
    # too long to come with it. A heading with nothing under it answers nothing.
    under = "Layers wrap what was added before them, in the order shown below here.\n" * 6
    text = (
        "# Middleware\n\nWrite middleware with from_fn.\n\n"
        f"# Ordering\n\n{under}\n"
        "# Running\n\nEvery middleware layer runs once per request, the outer one first.\n"
        "A middleware layer may end the request early and run nothing after it.\n"
    )
    cut = snippet(text, "docs/middleware.md", "middleware ordering run", max_chars=420)
    assert "Every middleware layer runs once" in cut.text
    fragments = [
        [line for line in fragment.split("\n") if line.strip()]
        for fragment in re.split(r"\[lines \d+-\d+ not shown\]", cut.text)
    ]
    assert all(fragment != ["# Ordering"] for fragment in fragments), cut.text


def test_a_table_of_contents_is_not_served_where_a_passage_with_the_same_terms_is():
    codes = [f"ERR_CODE_{n:02}" for n in range(30)]
    toc = "".join(f"- [{code}](#{code.lower()})\n" for code in codes)
    rows = "".join(
        f'| <a id="{code.lower()}">{code}</a> | Request {n} was refused, at some length. |\n'
        for n, code in enumerate(codes)
    )
    text = f"# Errors\n\n## Reference\n\n{toc}\n| Code | Description |\n| --- | --- |\n{rows}"
    cut = snippet(text, "docs/Errors.md", "ERR_CODE_17 meaning", max_chars=600)
    assert "Request 17 was refused" in cut.text, cut.text


def test_link_definitions_are_not_served_where_a_passage_with_the_same_terms_is():
    # The Rust book ends each chapter with its links' definitions (`[iostdin]:
    # ../std/io/struct.Stdin.html`); on "read a line from stdin" the guessing game's
    # chapter served its summary and those definitions, not where it reads the input.
    filler = "".join(f"Some other step {n} of the game, told at length.\n\n" for n in range(40))
    text = (
        "# Programming a Guessing Game\n\n"
        "## Receiving User Input\n\n"
        "Now we call the `stdin` function from the `io` module, which lets us handle user\n"
        "input; `read_line` reads a line into the string we pass it.\n\n"
        f"## Playing\n\n{filler}"
        "## Summary\n\nThis project introduced many new concepts.\n\n"
        "[iostdin]: ../std/io/struct.Stdin.html\n"
        "[read_line]: ../std/io/struct.Stdin.html#method.read_line\n"
        "[string]: ../std/string/struct.String.html\n"
        "[lines]: ../std/primitive.str.html#method.lines\n"
    )
    cut = snippet(text, "src/ch02-00-guessing-game-tutorial.md", "read a line from stdin")
    assert "lets us handle user" in cut.text, cut.text
    assert "[iostdin]:" not in cut.text, cut.text


def test_a_passage_of_a_page_never_shows_its_front_matter():
    # vitest's VitePress pages were served from their `---` and `title: In-Source Testing |
    # Guide` lines, the `## Setup` that answers left out.
    body = (
        "# In-Source Testing\n\nVitest can run tests inside your source files.\n\n"
        "## Setup\n\nPut an `if (import.meta.vitest)` block at the end of a source file.\n"
    )
    yaml = "---\ntitle: In-Source Testing | Guide\noutline: deep\n---\n\n"
    cut = snippet(yaml + body, "docs/in-source.md", "in-source testing")
    assert cut.text.startswith("# In-Source Testing\n") and cut.line_start == 6, cut.text
    toml = '+++\ntitle = "In-Source Testing"\n+++\n\n'
    cut = snippet(toml + body, "content/in-source.md", "in-source testing")
    assert cut.text.startswith("# In-Source Testing\n") and cut.line_start == 5, cut.text
    # fiber's Docusaurus partials have no heading: the passage grew back over the front
    # matter, its title holding the query's words.
    page = (
        "---\nid: handler-types\ntitle: Handler types\nsidebar_position: 3\n---\n\n"
        "The adapter converts many handler shapes. Seventeen are supported.\n\n"
        "### Native handlers\n\n- The canonical form.\n"
    )
    cut = snippet(page, "docs/handlers.md", "supported handler types")
    assert cut.text.startswith("The adapter converts") and cut.line_start == 7, cut.text


def test_a_passage_does_not_grow_back_over_a_pages_mdx_imports():
    # fiber's route-matcher.md: its lead passage grew back (`widen`) over `import
    # RoutePlayground from '@site/src/components/route-playground';`.
    filler = "".join(f"## Group {n}\n\nUnrelated widgets and gadgets {n}.\n\n" for n in range(20))
    text = (
        "\nimport RoutePlayground from '@site/src/components/route-playground';\n"
        "import Tabs from '@theme/Tabs';\n\n"
        "Edit the route table and watch which route wins and which parameters are "
        f"extracted.\n\n<RoutePlayground />\n\n{filler}"
    )
    cut = snippet(text, "docs/matcher.md", "which route wins parameters extracted")
    assert cut.text.startswith("Edit the route table") and cut.line_start == 5, cut.text


def test_a_script_block_inside_a_passage_is_shown_as_lines_left_out():
    # vitest's features.md: `<script setup>` importing the page's component under its
    # `# Features`.
    text = (
        "# Features\n\n<script setup>\n"
        "import FeaturesList from '../.vitepress/components/FeaturesList.vue'\n</script>\n\n"
        "<FeaturesList />\n\nVitest runs test files in parallel threads.\n\n"
        "```js\nimport { defineConfig } from 'vitest/config'\n```\n"
    )
    cut = snippet(text, "docs/features.md", "features parallel threads config")
    assert cut.text.startswith("# Features\n[lines 2-6 not shown]\n<FeaturesList />"), cut.text
    assert "import { defineConfig } from 'vitest/config'" in cut.text  # code shown, kept


RUST_WITH_TESTS = (
    "use std::io;\n\n"
    + "".join(f"fn helper_{i}() -> u32 {{\n    {i}\n}}\n\n" for i in range(12))
    + "/// Extracts the request parts a handler asks for.\n"
    "pub trait FromRequestParts<S>: Sized {\n"
    "    fn from_request_parts(parts: &mut Parts, state: &S) -> Self;\n"
    "}\n\n"
    + "".join(f"fn more_{i}() -> u32 {{\n    {i}\n}}\n\n" for i in range(12))
    + "#[cfg(test)]\nmod tests {\n    use super::*;\n\n"
    + "".join(
        f"    #[test]\n    fn from_request_parts_{i}() {{\n"
        f"        let parts = FromRequestParts::from_request_parts(&mut parts(), &());\n"
        f"        assert!(parts.is_ok());\n    }}\n\n"
        for i in range(6)
    )
    + "}\n"
)


def test_a_rust_files_test_module_is_not_its_passage_unless_tests_are_asked_about():
    query = "FromRequestParts from_request_parts"
    cut = snippet(RUST_WITH_TESTS, "src/extract.rs", query, max_chars=400)
    assert "pub trait FromRequestParts<S>: Sized {" in cut.text, cut.text
    cut = snippet(RUST_WITH_TESTS, "src/extract.rs", f"{query} tests", max_chars=400)
    assert "#[test]" in cut.text, cut.text


RUST_WITH_LOOSE_TESTS = (
    "use std::io;\n\n"
    + "".join(f"fn helper_{i}() -> u32 {{\n    {i}\n}}\n\n" for i in range(12))
    + "/// Parses a line range such as `30:+10` into its start and end lines.\n"
    "pub fn parse_line_range(text: &str) -> LineRange {\n"
    '    let (start, more) = text.split_once(":+").unwrap();\n'
    "    LineRange::new(start.parse().unwrap(), more.parse().unwrap())\n"
    "}\n\n"
    + "".join(f"fn more_{i}() -> u32 {{\n    {i}\n}}\n\n" for i in range(12))
    + "".join(
        f"#[test]\nfn parse_line_range_case_{i}() {{\n"
        f'    let range = parse_line_range("{i}:+10");\n'
        f"    assert_eq!(range, LineRange::new({i}, 10)); // line range start end\n}}\n\n"
        for i in range(6)
    )
)


def test_a_rust_test_function_ends_at_its_own_closing_brace():
    lines = [
        "#[test]",
        'fn one_line() { assert!(parse("1").is_ok()) }',
        "",
        "pub fn parse(text: &str) -> Result<u32, Error> {",
        "    text.parse()",
        "}",
        "",
        "#[tokio::test]",
        "async fn reads() {",
        "    assert!(read().await.is_ok());",
        "}",
    ]
    assert inline_tests(lines, "src/lib.rs") == [Span(0, 2), Span(7, 11)]
    assert inline_tests(lines, "src/lib.py") == []


def test_rust_test_functions_outside_a_test_module_are_not_the_passage():
    # Nor its second passage: `#[test]` functions test the code as a test module's do.
    query = "parse line range start end"
    cut = snippet(RUST_WITH_LOOSE_TESTS, "src/line_range.rs", query, max_chars=900)
    assert "pub fn parse_line_range(text: &str) -> LineRange {" in cut.text, cut.text
    assert "#[test]" not in cut.text, cut.text
    cut = snippet(RUST_WITH_LOOSE_TESTS, "src/line_range.rs", f"{query} tests", max_chars=400)
    assert "#[test]" in cut.text, cut.text


def test_an_import_block_is_not_the_passage_where_code_uses_the_same_names():
    text = (
        "from reporters.base import BaseReporter, ReporterOptions\n"
        "from reporters.summary import SummaryReporter, TaskSummary\n"
        "from reporters.verbose import VerboseReporter, TaskResult\n"
        "from reporters.json import JsonReporter, JsonResult\n"
        "from reporters.junit import JUnitReporter, JUnitResult\n\n\n"
        + "".join(f"def helper_{i}():\n    return {i}\n\n\n" for i in range(15))
        + "def make_reporter(name, options):\n"
        '    """The summary reporter, unless a name picks another."""\n'
        "    reporters = {'summary': SummaryReporter}\n"
        "    return reporters[name](options)\n"
    )
    cut = snippet(text, "src/reporters/index.py", "summary reporter verbose", max_chars=320)
    assert "def make_reporter" in cut.text, cut.text


def test_an_import_block_is_not_the_passage_where_code_holds_fewer_of_the_words():
    # vitest's ui/client/composables/navigation.ts: for "watch mode rerun source file" its
    # import lines (`watchOnce`, `watch`, `rerunFiles`, `showTaskSource`, `viewMode`) held
    # every word, the one function using them three; the import block was served, with the
    # function glued after it as a second passage.
    text = (
        "import { useLocalStorage, watchOnce } from '@vueuse/core'\n"
        "import { computed, nextTick, reactive, ref, watch } from 'vue'\n"
        "import { rerunFiles } from './client'\n"
        "import { showTaskSource } from './codemirror'\n"
        "import { activeFileId, viewMode } from './params'\n\n"
        + "".join(f"export function helper{n}(value: number): number {{\n"
                  f"  return value * {n} + 1\n}}\n\n" for n in range(30))
        + "export function clickOnTask(task: Task) {\n"
        "  if (task.type === 'test') {\n    showTaskSource(task)\n  }\n"
        "  else {\n    navigateTo({ file: task.file.id, view: viewMode.value })\n  }\n}\n"
    )  # fmt: skip
    cut = snippet(text, "src/navigation.ts", "watch mode rerun source file", max_chars=800)
    assert "export function clickOnTask(task: Task) {" in cut.text, cut.text
    assert "import" not in cut.text, cut.text


@pytest.mark.parametrize(
    ("path", "exports"),
    [
        ("lib/util.js", "module.exports = {\n" + "".join(f"  helper{n},\n" for n in range(30))
         + "  promisify,\n  customPromisifyArgs: Symbol('customPromisifyArgs'),\n};\n"),
        ("src/util/__init__.py", "__all__ = [\n" + "".join(f'    "helper{n}",\n' for n in range(30))
         + '    "promisify",\n    "custom_symbol",\n]\n'),
        ("src/util.ts", "export {\n" + "".join(f"  helper{n},\n" for n in range(30))
         + "  promisify,\n  customSymbol,\n};\n"),
    ],
    ids=["commonjs", "python", "typescript"],
)  # fmt: skip
def test_an_export_list_is_not_the_passage_where_code_defines_the_names(path, exports):
    # Node's lib/internal/util.js: `promisify custom symbol` served its `module.exports`
    # list of 40 names, never the function.
    helpers = "".join(f"function helper{n}(a) {{\n  return a + {n};\n}}\n\n" for n in range(20))
    text = (
        "const kCustomPromisifiedSymbol = Symbol.for('util.promisify.custom');\n\n"
        + helpers
        + "function promisify(original) {\n  if (original[kCustomPromisifiedSymbol]) {\n"
        "    return original[kCustomPromisifiedSymbol];\n  }\n  return wrap(original);\n}\n\n"
        + exports
    )
    cut = snippet(text, path, "promisify custom symbol", max_chars=420)
    assert "function promisify(original) {" in cut.text, cut.text


def test_a_module_exporting_an_object_of_methods_is_no_export_list():
    # Koa's lib/response.js is one `module.exports = {` of getters, setters and methods:
    # its first member was taken for an export list, and the file demoted "(imports only)".
    text = (
        "'use strict'\n\nmodule.exports = {\n  set body (val) {\n    this._body = val\n"
        "    // a stream body is piped to the socket as it is read\n"
        "    if (val && typeof val.pipe === 'function') {\n      this.type = 'bin'\n"
        "      return\n    }\n    this.type = 'json'\n  },\n\n"
        "  get body () {\n    return this._body\n  }\n}\n"
    )
    lines = text.split("\n")
    held = {index + 1: {"stream": 1} for index, line in enumerate(lines) if "pipe" in line}
    assert not imports_only(lines, held)
    listed = "module.exports = {\n  pipeBody,\n  pipeStream: streams.pipe,\n}\n".split("\n")
    assert imports_only(listed, {2: {"pipe": 1}, 3: {"pipe": 1}})


RUST_MODULE_DOC = (
    "//! Framing of byte streams.\n//!\n"
    "//! A frame reader turns a stream of bytes into a stream of frames, and a frame\n"
    "//! writer does the reverse. Each frame starts with a length field that tells the\n"
    "//! reader how many bytes of payload follow.\n\n"
)
RUST_HELPERS = "".join(
    f"fn helper_{n}(value: usize) -> usize {{\n    value * 2 + {n}\n}}\n\n" for n in range(20)
)


@pytest.mark.parametrize(
    "declarations",
    [
        "mod frame_reader;\npub(crate) use frame_reader::FrameReader;\n\n"
        "mod frame_length;\npub(crate) use frame_length::MaxFrameLength;\n\n"
        "pub mod frame_codec;\npub(super) use frame_codec::FrameCodec;\n",
        "pub(crate) mod frame_reader;\npub(in crate::codec) use frame_reader::FrameReader;\n"
        "extern crate frame_length;\npub use frame_length::MaxFrameLength;\n",
    ],
    ids=["mod-and-pub-crate-use", "pub-crate-mod-and-extern-crate"],
)
def test_rust_module_declarations_are_navigation_as_its_use_lines_are(declarations):
    # tokio's mod.rs and lib.rs files: a block of `mod x;` and `pub(crate) use x::Y;` lines
    # was served as a second passage (and as the hit of `select biased`), saying nothing.
    text = RUST_MODULE_DOC + RUST_HELPERS + declarations
    lines = text.splitlines()
    start = lines.index(declarations.splitlines()[0])
    is_navigation = navigation_test(lines, code=True)
    assert is_navigation(Span(start, len(lines))), declarations
    cut = snippet(text, "src/codec/mod.rs", "frame reader max frame length", max_chars=700)
    assert "A frame reader turns" in cut.text, cut.text
    assert "FrameReader;" not in cut.text, cut.text


INTERRUPT_RS = (
    "use std::io;\n\n/// Creates a listener for interrupts.\n///\n/// # Caveats\n///\n"
    "/// On Unix platforms, the first time a handler is registered for a signal\n"
    "/// kind, an OS signal handler is installed which replaces the default platform\n"
    "/// behavior when that signal is received, for the duration of the entire\n"
    "/// process.\n///\n"
    "/// For example, Unix systems terminate a process by default when it receives\n"
    "/// an interrupt from the terminal. Once a listener exists, the interrupt is\n"
    "/// turned into an event instead, and the process keeps running. Even after\n"
    "/// the listener is dropped, later interrupts are still captured by the\n"
    "/// handler and no longer kill the process.\n"
    "pub fn interrupt() -> io::Result<Listener> {\n    Listener::new(Kind::Interrupt)\n}\n"
)


def test_a_doc_comment_in_code_is_served_from_a_sentences_start():
    # tokio's ctrl_c.rs: a passage started at "/// behavior when that signal is received,
    # for the duration of the entire", the sentence's subject cut off.
    query = "after listening for an interrupt once, will a later interrupt still kill my process"
    cut = snippet(INTERRUPT_RS, "src/interrupt.rs", query, max_chars=500)
    assert cut.text.startswith("/// For example, Unix systems terminate"), cut.text
    assert "pub fn interrupt()" in cut.text
    bounds = ProseBounds.of_comments(INTERRUPT_RS.splitlines())
    assert bounds.runs_on(7) and not bounds.runs_on(11) and not bounds.runs_on(16)


def test_a_window_of_code_starts_at_its_doc_comments_first_line_not_inside_it():
    # uv's uv-cache/src/cli.rs: a window started at `/// 1. A temporary directory`, its
    # doc comment's "Prefer, in order:" left out for a body line holding the same words.
    steps = "".join(f"        let step_{n} = compute_step({n}, &cache_dir);\n" for n in range(40))
    text = (
        "pub struct Cache {\n    root: PathBuf,\n}\n\nimpl Cache {\n"
        "    /// Prefer, in order:\n    ///\n"
        "    /// 1. A temporary directory, if the user requested `--no-cache`.\n"
        "    /// 2. The directory given by the user via `--cache-dir`.\n"
        "    /// 3. The system-appropriate cache directory.\n"
        "    pub fn from_settings(no_cache: bool, cache_dir: Option<PathBuf>) -> Self {\n"
        f"{steps}        Self {{ root }}\n    }}\n}}\n"
    )
    query = "which cache directory is used when the user passes a directory"
    cut = snippet(text, "src/cache.rs", query, max_chars=800)
    # led by its `impl` block's line, room made from the body's lines that repeat a term
    assert cut.text.startswith("impl Cache {\n    /// Prefer, in order:\n"), cut.text
    assert "    pub fn from_settings(" in cut.text, cut.text
    # A lead of three lines at most, even when it holds a word asked for (`--no-cache`):
    # uv's `UV_CACHE_DIR` was served from `/// 2.`.
    text = text.replace("via `--cache-dir`", "via `--cache-dir` or `APP_CACHE_DIR`")
    cut = snippet(text, "src/cache.rs", "APP_CACHE_DIR", max_chars=800)
    assert cut.text.startswith("impl Cache {\n    /// Prefer, in order:\n"), cut.text


PHP_CLASS = (
    "<?php\n\ndeclare(strict_types=1);\n\nnamespace Slim\\Middleware;\n\n"
    "use Psr\\Http\\Message\\ResponseInterface;\nuse Psr\\Http\\Server\\MiddlewareInterface;\n\n"
    "use function ob_start;\nuse function ob_get_clean;\n\n"
    "class OutputBufferingMiddleware implements MiddlewareInterface\n{\n"
    "    public const APPEND = 'append';\n\n    protected string $style;\n\n"
    + "".join(
        f"    public function step{n}(string $value): string\n    {{\n"
        f"        return $value . '{n}';\n    }}\n\n"
        for n in range(20)
    )
    + "}\n"
)
PYTHON_CLASS = (
    "from reporters.base import BaseReporter\nfrom reporters.summary import Summary\n\n\n"
    "class SummaryReporter(BaseReporter):\n"
    + "".join(f"    def step_{n}(self, value):\n        return value + {n}\n\n" for n in range(20))
)

MKDOCS_ADMONITION = (
    "# GitHub\n\n## Caching\n\n" + "Paragraph about persisting the build artifacts.\n" * 30 + "\n"
    "!!! note\n\n"
    "    [post-job-hook]: https://docs.github.com/en/actions/running-scripts\n\n"
    "    On self-hosted runners the cache directory can grow unbounded: move it\n"
    "    inside the workspace and remove it with a [post job hook][post-job-hook].\n\n"
    + "".join(
        f"    Setting number {n} of the runner is the path of a cleanup script.\n" for n in range(6)
    )
    + "\n    ```sh\n    app cache clean\n    ```\n\n"
    "## Other\n\n" + "Unrelated words.\n" * 30
)


@pytest.mark.parametrize(
    ("path", "text", "query", "start"),
    [
        ("Slim/Middleware/OutputBufferingMiddleware.php", PHP_CLASS, "OutputBufferingMiddleware",
         "class OutputBufferingMiddleware implements MiddlewareInterface"),
        ("reporters/summary.py", PYTHON_CLASS, "SummaryReporter", "class SummaryReporter("),
    ],
    ids=["php", "python"],
)  # fmt: skip
def test_a_passage_of_code_is_not_led_by_the_imports_above_it(path, text, query, start):
    # PHP's `namespace` and `use` lines sit right above the class: they name what the
    # class uses and say nothing of it.
    cut = snippet(text, path, query, max_chars=800)
    assert cut.text.startswith(start), cut.text


def test_the_names_a_query_spells_whole():
    def names(query):
        return TermMatcher(query_terms(query)).names

    assert names("add_typer") == {"addtyper": ("add", "typer", "addtyper")}
    assert names("echo") == {"echo": ("echo",)}
    assert names("click style") == {
        "click": ("click",),
        "style": ("style",),
        "clickstyle": ("click", "style"),
    }
    # In a question, a plain word is English; its words run together may still be a name.
    assert names("stylesheet parse error") == {
        "stylesheetparseerror": ("stylesheet", "pars", "error")
    }
    assert "run" not in names("which program does search_zip run to decompress a file")


@pytest.mark.parametrize("name", ["add_row", "add_table_row", "appendTableRowCells"])
def test_a_snippet_shows_the_definition_of_the_name_asked_for_not_a_call(name):
    # However many parts the name has: each is a word of the name, not of a question.
    calls = "".join(f"def caller_{n}(table):\n    table.{name}(1, 2)\n\n" for n in range(3))
    definition = (
        "class Table:\n"
        f"    def {name}(self, *cells):\n"
        '        """Append a row of cells."""\n'
        "        self.rows.append(cells)\n\n"
    )
    cut = snippet(calls + definition + calls, "src/table.py", name, max_chars=120)
    assert f"def {name}(self, *cells):" in cut.text


TS_GENERIC = """\
import type { StateCreator, StoreMutatorIdentifier } from '../vanilla.ts'

// This is experimental middleware. It will be changed before finalizing it.
// https://github.com/pmndrs/zustand/discussions/2740
// TODO Not very happy with the middleware name. Will revisit it later.
export function ssrSafe<
  T extends object,
  U extends object,
  Mps extends [StoreMutatorIdentifier, unknown][] = [],
  Mcs extends [StoreMutatorIdentifier, unknown][] = [],
>(
  config: StateCreator<T, Mps, Mcs, U>,
  isSSR: boolean = typeof window === 'undefined',
): StateCreator<T, Mps, Mcs, U> {
  return (set, get, api) => {
    if (!isSSR) {
      return config(set, get, api)
    }
    const ssrSet = () => {
      throw new Error('Cannot set state of Zustand store in SSR')
    }
    api.setState = ssrSet
    return config(ssrSet as never, get, api)
  }
}
"""


def test_a_generic_parameter_list_closed_on_its_own_line_is_part_of_the_definition():
    # `>(` closes a TypeScript function's type parameters: the definition goes on.
    cut = snippet(TS_GENERIC, "src/middleware/ssrSafe.ts", "ssrSafe middleware", max_chars=1500)
    assert "export function ssrSafe<" in cut.text
    assert "throw new Error('Cannot set state of Zustand store in SSR')" in cut.text


FREEZE = """\
import type { Atom, WritableAtom } from './atom.ts'

const frozen = new WeakSet<Atom<unknown>>()

const deepFreeze = <T>(value: T): T => {
  if (typeof value !== 'object' || value === null) {
    return value
  }
  Object.freeze(value)
  const names = Object.getOwnPropertyNames(value)
  for (const name of names) {
    deepFreeze((value as never)[name])
  }
  return value
}

export function freezeAtom<AtomType extends Atom<unknown>>(
  anAtom: AtomType,
): AtomType

export function freezeAtom(
  anAtom: WritableAtom<unknown, unknown[], unknown>,
): WritableAtom<unknown, unknown[], unknown> {
  if (frozen.has(anAtom)) {
    return anAtom
  }
  frozen.add(anAtom)

  const originalRead = anAtom.read
  anAtom.read = function (get, options) {
    return deepFreeze(originalRead.call(this, get, options))
  }
  if ('write' in anAtom) {
    const originalWrite = anAtom.write
    anAtom.write = function (get, set, ...args) {
      return originalWrite.call(
        this,
        get,
        (...setArgs) => {
          if (setArgs[0] === anAtom) {
            setArgs[1] = deepFreeze(setArgs[1])
          }

          return set(...setArgs)
        },
        ...args,
      )
    }
  }
  return anAtom
}
"""


def test_two_passages_whose_lines_between_fit_the_cap_are_shown_as_one():
    # However many lines lie between: hidden, they were the very lines that apply
    # deepFreeze to the atom's value, in 300 characters.
    cut = snippet(
        FREEZE, "src/freezeAtom.ts", "deep freeze atom value", max_chars=1500, max_line_chars=300
    )
    assert "not shown" not in cut.text, cut.text
    assert "return deepFreeze(originalRead.call(this, get, options))" in cut.text


def test_a_gap_of_a_few_lines_between_two_passages_is_shown_not_marked():
    # `[lines 8-12 not shown]` would stand for two short lines: it costs more than they do.
    long1 = " ".join(f"The token budget caps what a skill gets, part {n}." for n in range(12))
    long2 = " ".join(f"Each token of the budget is counted, case {n}." for n in range(10))
    filler = " ".join(f"Unrelated words about colours number {n}." for n in range(30))
    text = (
        f"# Guide\n\n{filler}\n\n## Budget\n\n{long1}\n\n## Aside\n\nSee also.\n\n"
        f"## Counting the budget\n\n{long2}\n\n## End\n\n{filler}\n"
    )
    cut = snippet(text, "guide.md", "token budget", max_chars=1200, max_line_chars=2000)
    assert "not shown" not in cut.text
    assert "## Aside\n\nSee also.\n\n## Counting the budget" in cut.text
    assert (cut.line_start, cut.line_end) == (5, 15)


SESSION_STYLE = (
    """\
class Session:
    def __init__(self):
        #: Default connection adapters.
        self.adapters = {}
        self.mount("https://", HTTPAdapter())
        self.mount("http://", HTTPAdapter())

"""
    + "".join(
        f"    def helper_{n}(self, value):\n"
        f"        '''Helper number {n}.'''\n"
        f"        return value + {n}\n\n"
        for n in range(30)
    )
    + '''\
    def mount(self, prefix, adapter):
        """Registers a connection adapter to a prefix.

        Adapters are sorted in descending order by prefix length.
        """
        self.adapters[prefix] = adapter
'''
)


def test_a_name_looked_up_is_shown_at_its_definition_first_not_at_a_call_above_it():
    cut = snippet(SESSION_STYLE, "src/sessions.py", "mount", max_chars=1500)
    assert led_by(cut.text)[1].startswith("    def mount(self, prefix, adapter):"), cut.text


def test_a_dotted_name_looks_up_the_member_not_the_class_that_holds_it():
    # `Session.mount`: the method `mount` of `Session`, not the class.
    names = query_names(query_terms("Session.mount"))
    assert "mount" in names and "session" not in names
    assert set(query_names(query_terms("AsyncClient.stream"))) == {"stream"}
    text = SESSION_STYLE.replace("class Session:", 'class Session:\n    """A session."""\n')
    cut = snippet(text, "src/sessions.py", "Session.mount", max_chars=1500)
    lead, passage = led_by(cut.text)
    assert lead == ["class Session:", '    """A session."""'], cut.text
    assert passage.startswith("    def mount(self, prefix, adapter):"), cut.text


@pytest.mark.parametrize(
    "query",
    [
        "pyvenv.cfg", "where is pyproject.toml read", "package.json scripts", "settings.py",
        "vite.config.ts", "README.md", "Cargo.toml", "uv.lock", "docs/whats_new.md",
        "types in index.d.ts", "the .eslintrc.json file", "Node.js", "is pyvenv.cfg written?",
    ],
)  # fmt: skip
def test_a_file_name_in_the_query_is_no_member_looked_up(query):
    # astral-sh/uv: "pyvenv.cfg" was read as the member `cfg` of `pyvenv`, so every file
    # reading or writing pyvenv.cfg weighed 0.6 "(does not define it)", and one defining an
    # unrelated `fn cfg` came first.
    terms = query_terms(query)
    assert [term.key for term in terms if term.qualifier or term.member] == []
    assert not names_looked_up(terms) and not query_names(terms)


@pytest.mark.parametrize(
    "query, member",
    [
        ("Session.mount", "mount"), ("app.run", "run"), ("response.json()", "json"),
        # Phoenix's `Controller.json/2`: after a class's name, `json` and `lock` are members.
        ("how does Controller.json encode the response body", "json"), ("Mutex.lock", "lock"),
    ],
)  # fmt: skip
def test_a_member_written_as_a_files_extension_is_still_looked_up(query, member):
    assert member in names_looked_up(query_terms(query))


def test_a_diagrams_labels_count_and_the_names_its_arrows_repeat_do_not():
    from tierscope.ranking.markup_words import without_markup_words

    text = (
        "# Flow\n\n```mermaid\nsequenceDiagram\n    participant Client\n"
        "    Client->>Server: HTTP GET Request\n    Note right of Server: Scope type\n"
        "```\n\n```mermaid\nflowchart LR\n    Start[Parse input] -->|valid| Check{Is it cached?}\n"
        "```\n\nClient->>Server: outside a diagram, text as any.\n"
    )
    counted = without_markup_words(text, "markdown")
    assert len(counted) == len(text) and counted.count("\n") == text.count("\n")
    words = counted.split()
    assert "participant" in words and "Client" in words  # declared once: counted
    assert "Server" not in counted.split("outside")[0].split()  # on its arrow and note
    for label in ("HTTP GET Request", "Scope type", "[Parse input]", "|valid|", "{Is it cached?}"):
        assert label in counted
    assert "sequenceDiagram" not in words and "Start" not in words and "Check" not in words
    assert counted.endswith("Client->>Server: outside a diagram, text as any.\n")


def test_a_second_passage_that_repeats_the_first_is_left_out():
    # httpx's Client and AsyncClient hold the same method: the second copy says nothing new.
    method = (
        "    def _transport_for_url(self, url: URL) -> {kind}:\n"
        '        """\n'
        "        Returns the transport instance that should be used for a given URL.\n"
        "        This will either be the standard connection pool, or a proxy.\n"
        '        """\n'
        "        for pattern, transport in self._mounts.items():\n"
        "            if pattern.matches(url):\n"
        "                return self._transport if transport is None else transport\n\n"
        "        return self._transport\n\n"
    )
    body = "".join(
        f"    def other_{n}(self):\n        return self.compute_something_else({n})\n\n"
        for n in range(40)
    )
    text = (
        f"class Client:\n{body}{method.format(kind='BaseTransport')}"
        f"class AsyncClient:\n{body}{method.format(kind='AsyncBaseTransport')}"
    )
    cut = snippet(text, "httpx/_client.py", "url pattern matching mounts transport", 1500)
    assert cut.text.count("def _transport_for_url") == 1
    lead, passage = led_by(cut.text)
    assert len(lead) == 1 and lead[0] in ("class Client:", "class AsyncClient:"), cut.text
    assert "not shown" not in passage, cut.text


def test_a_second_passage_that_is_a_doc_comment_is_followed_by_its_definitions_line():
    # fiber's res.go: `SendFile compress` served the SendFile struct, then two of the four
    # doc comment lines above `func (r *DefaultRes) SendFile(`, which the room left cut
    # off: a comment saying how to enable compression, of nothing shown.
    steps = "".join(f"\tstep{n} := prepare({n})\n\t_ = step{n}\n" for n in range(30))
    text = (
        "package send\n\n// SendFile holds the options of a file sent.\n"
        "type SendFile struct {\n\t// Compress caches compressed files.\n"
        '\tCompress bool `json:"compress"`\n\t// MaxAge is the Cache-Control max age.\n'
        '\tMaxAge int `json:"max_age"`\n}\n\nfunc prepare(i int) int { return i }\n\n'
        "// SendFile transfers the file from the specified path.\n"
        "// By default, the file is not compressed. To enable compression, set "
        "SendFile.Compress to true.\n"
        "// The Content-Type response HTTP header field is set from the file's extension.\n"
        f"SIGNATURE {{\n{steps}\treturn nil\n}}\n"
    )
    signature = "func (r *Res) SendFile(file string, config ...SendFile) error"
    cut = snippet(text.replace("SIGNATURE", signature), "send.go", "SendFile compress", 450)
    shown = cut.text.splitlines()
    assert "type SendFile struct {" in shown, cut.text
    assert "// By default, the file is not compressed. To enable compression, set " in cut.text
    assert shown[-1] == "func (r *Res) SendFile(file string, config ...SendFile) error {", cut.text
    assert left_out_lines(shown[-2]) is not None, cut.text
    assert len(cut.text) <= 450
    # With no room for the definition's line, no comment at all.
    signature = signature.replace("*Res", "*DefaultResponseWriter").replace(
        "error", "(written int64, err error)"
    )
    cut = snippet(text.replace("SIGNATURE", signature), "send.go", "SendFile compress", 450)
    assert "type SendFile struct {" in cut.text, cut.text
    assert "To enable compression" not in cut.text, cut.text


# Go functions between the two a test tells apart.
GO_HELPERS = "".join(f"func helper{n}() int {{\n\treturn {n}\n}}\n\n" for n in range(30))


COMMANDER_STYLE = (
    "class Command extends EventEmitter {\n"
    "  constructor(name) {\n    super();\n    this.commands = [];\n  }\n\n"
    + "".join(
        f"  helper{n}(value) {{\n    return this.compute(value, {n});\n  }}\n\n" for n in range(25)
    )
    + "  /**\n   * Define option with `flags`, `description`, and optional argument parsing.\n"
    "   */\n"
    "  option(flags, description, parseArg, defaultValue) {\n"
    "    return this._optionEx({}, flags, description, parseArg, defaultValue);\n  }\n\n"
    "  async start(filters?: string[]): Promise<void> {\n    await this.run(filters);\n  }\n\n"
    # A call spread over lines, as a method's signature is once Prettier wraps it.
    "  warmup(url) {\n    fetchModule(\n      url,\n      this.options,\n    )\n  }\n\n"
    + "".join(f"  other{n}(value) {{\n    return value * {n};\n  }}\n\n" for n in range(12))
    + "  async fetchModule(\n    id: string,\n    importer?: string,\n  ): Promise<FetchResult> {\n"
    "    return this.fetcher.fetch(id, importer);\n  }\n"
    "}\n"
)


@pytest.mark.parametrize(
    ("query", "start"),
    [
        ("Command.option", "  /**\n   * Define option with `flags`"),
        ("option", "  /**\n   * Define option with `flags`"),
        ("Command.start", "  async start(filters?: string[]): Promise<void> {"),
        # The signature wrapped over lines: its name's line defines it, never a call's.
        ("Command.fetchModule", "  async fetchModule(\n    id: string,"),
    ],
)
def test_a_javascript_class_method_is_a_definition(query, start):
    # `option(flags, ...) {` in a class body defines `option`, as `def option(` would.
    cut = snippet(COMMANDER_STYLE, "lib/command.ts", query, max_chars=300)
    lead, passage = led_by(cut.text)
    assert lead == ["class Command extends EventEmitter {"], cut.text
    assert passage.startswith(start), cut.text


HOOKS_STYLE = (
    "import { getContext } from './context'\n\n"
    + "".join(
        f"export const useHook{n} = (value: number): number => {{\n"
        f"  const [state, setState] = useState(value)\n  return state + {n}\n}}\n\n"
        for n in range(12)
    )
    + "/** Keeps a value between renders. */\n"
    "export const useState = <T,>(initial: T): [T, (next: T) => void] => {\n"
    "  const context = getContext()\n  return context.state(initial)\n}\n\n"
    "export interface UseState {\n  <T>(initial: T): [T, (next: T) => void]\n}\n"
)


@pytest.mark.parametrize(
    ("path", "query", "start"),
    [
        # `export const name = (...) =>`: the form most of modern TypeScript defines with.
        ("src/hooks.ts", "useState", "/** Keeps a value between renders. */"),
        # Go: `parseOptions` and `ParseOptions` are two names.
        (
            "src/options.go",
            "parseOptions",
            "func parseOptions(args []string) *Options {",
        ),
    ],
)
def test_a_name_is_shown_at_its_definition_in_the_case_the_query_spells(path, query, start):
    text = HOOKS_STYLE
    if path.endswith(".go"):
        filler = "".join(f"func helper{n}() int {{\n\treturn {n}\n}}\n\n" for n in range(25))
        text = (
            "package options\n\n"
            "func ParseOptions(args []string) (*Options, error) {\n"
            "\treturn parseOptions(args), nil\n}\n\n"
            + filler
            + "func parseOptions(args []string) *Options {\n\treturn &Options{args: args}\n}\n"
        )
    cut = snippet(text, path, query, max_chars=300)
    assert cut.text.startswith(start), cut.text


@pytest.mark.parametrize("path", ["src/rewrite.ts", "src/rewrite.go"])
def test_a_doc_comment_is_served_with_the_definition_it_leads_into(path):
    # The definition is too long to serve whole: its doc comment alone says what it is
    # called for, and nothing of what it is.
    body = "".join(f"  const x{n} = compute{n}(options, {n})\n" for n in range(60))
    opener = (
        "func betaname(options Options) int {\n"
        if path.endswith(".go")
        else "export function betaname(options: Options) {\n"
    )
    comment = "/**\n * Betaname middleware: rewrites requests.\n */\n"
    text = comment + opener + body + "  return 0\n}\n"
    cut = snippet(text, path, "betaname", max_chars=600)
    assert cut.text.startswith(comment), cut.text
    assert opener.strip() in cut.text and "const x3 = compute3(options, 3)" in cut.text


# tokio's `Builder::max_blocking_threads`: a doc comment too long to serve with its
# definition, the answer in its middle, and a sibling below whose doc comment also holds a
# word of the question.
_LONG_DOC_RUST = (
    "impl Builder {\n"
    "    /// Specifies the limit for additional threads spawned by the Runtime.\n"
    + "".join(
        f"    /// These threads serve blocking operation number {n} of the pool.\n"
        for n in range(8)
    )
    + "    ///\n"
    "    /// The default value is 512.\n"
    "    ///\n"
    + "".join(f"    /// [`link{n}`]: crate::task::link_number_{n}\n" for n in range(8))
    + "    #[track_caller]\n"
    "    pub fn max_blocking_threads(&mut self, val: usize) -> &mut Self {\n"
    '        assert!(val > 0, "Max blocking threads cannot be set to 0");\n'
    "        self.max_blocking_threads = val;\n"
    "        self\n"
    "    }\n"
    "\n"
    "    /// Sets name of threads spawned by the pool.\n"
    "    ///\n"
    '    /// The default name is "tokio-rt-worker".\n'
    + "".join(f"    /// Example line {n} of naming the threads.\n" for n in range(14))
    + "    pub fn thread_name(&mut self, val: String) -> &mut Self {\n"
    "        self.thread_name = val;\n"
    "        self\n"
    "    }\n"
    "}\n"
)


def test_a_definition_the_querys_words_spell_run_together_starts_the_snippet():
    # `stylesheet parse error`: the snippet began at a class whose docstring mentions
    # `StylesheetParseError`, the definition only after the marker (pydantic's
    # `collect model fields` and `_fields.collect_model_fields`).
    helpers = "".join(
        f'def helper_{n}(value):\n    """Return the value times {n}."""\n    return {n}\n\n\n'
        for n in range(25)
    )
    text = (
        '"""Stylesheet helpers."""\n\n\nclass Info:\n    """About a stylesheet.\n\n'
        "    A failed parse raises `StylesheetParseError`, with the error position.\n"
        '    """\n\n    names: set[str]\n\n\n'
        + helpers
        + "class StylesheetParseError(Exception):\n"
        '    """Raised when a stylesheet cannot be parsed."""\n\n'
        "    def __init__(self, line, column):\n        self.line = line\n"
    )
    for query in ("stylesheet parse error", "StylesheetParseError"):
        cut = snippet(text, "src/css.py", query, 600)
        assert cut.text.startswith("class StylesheetParseError(Exception):"), (query, cut.text)


def test_a_rust_type_asked_for_is_served_at_its_declaration_not_an_impl_block():
    # uv's `LinkMode`: the small `impl LinkMode` block "defined" the name as much as the
    # enum, and was denser; the enum, its variants and its doc comment were never shown.
    text = (
        "use std::path::Path;\n\n"
        "/// The method to use when linking files from the cache.\n"
        "#[derive(Debug, Clone, Copy)]\n"
        "pub enum LinkMode {\n"
        + "".join(f"    /// Link mode number {n}.\n    Mode{n},\n" for n in range(8))
        + "}\n\n"
        "impl LinkMode {\n"
        "    /// Returns `true` if the link mode is [`LinkMode::Mode3`].\n"
        "    pub fn is_symlink(&self) -> bool {\n        matches!(self, Self::Mode3)\n    }\n}\n\n"
        "pub fn link_dir(src: &Path, mode: LinkMode) {\n    match mode {\n"
        "        LinkMode::Mode0 => copy(src),\n        _ => clone(src),\n    }\n}\n"
    )
    cut = snippet(text, "src/link.rs", "LinkMode", max_chars=400)
    assert "pub enum LinkMode {" in cut.text, cut.text


def test_a_definition_asked_for_is_served_from_the_doc_comment_lines_that_answer():
    # The window at the signature ran on into the sibling below, whose doc comment holds
    # `default`; the doc comment's "The default value is 512." was left out.
    cut = snippet(_LONG_DOC_RUST, "src/runtime/builder.rs", "max_blocking_threads default", 900)
    assert "The default value is 512." in cut.text, cut.text
    assert "pub fn max_blocking_threads(&mut self" in cut.text, cut.text
    assert "thread_name" not in cut.text, cut.text


def test_of_two_spans_holding_a_definition_the_one_with_its_doc_comment_wins():
    # clap's `Man::render`: a window of the `impl` block from the method's own line held
    # as much as the method with its doc comment, and was denser.
    from tierscope.ranking.span_choice import SpanChooser

    lines = [
        "    /// Render a full manual page into the writer.",
        "    pub fn render(&self, w: &mut dyn Write) {",
        "        roff.to_writer(w)",
        "    }",
    ]
    chooser = SpanChooser(
        lines, {2: {"render": 1}}, {"render": 1.0}, max_chars=400, max_line_chars=120,
        code=True, named={0: 1.0, 1: 1.0}, lead_ins={1: 0},
    )  # fmt: skip
    assert chooser.best([Span(1, 4), Span(0, 4)])[2] == Span(0, 4)
    # A doc comment without the definition under it is not the definition.
    assert chooser.best([Span(1, 4), Span(0, 1)])[2] == Span(1, 4)


# Laravel's Session\Store and Routing\UrlGenerator, cut down: methods under `/** ... */`
# docblocks.
_PHP_STORE = (
    "<?php\n"
    "\n"
    "class Store\n"
    "{\n"
    "    /**\n"
    "     * Age the flash data for the session.\n"
    "     *\n"
    "     * @return void\n"
    "     */\n"
    "    public function ageFlashData()\n"
    "    {\n"
    "        $this->forget($this->get('_flash.old', []));\n"
    "\n"
    "        $this->touch('_flash.step0');\n"
    "        $this->touch('_flash.step1');\n"
    "        $this->touch('_flash.step2');\n"
    "        $this->touch('_flash.step3');\n"
    "        $this->touch('_flash.step4');\n"
    "        $this->touch('_flash.step5');\n"
    "        $this->touch('_flash.step6');\n"
    "        $this->touch('_flash.step7');\n"
    "        $this->touch('_flash.step8');\n"
    "        $this->touch('_flash.step9');\n"
    "        $this->touch('_flash.step10');\n"
    "        $this->touch('_flash.step11');\n"
    "        $this->touch('_flash.step12');\n"
    "        $this->touch('_flash.step13');\n"
    "        $this->touch('_flash.step14');\n"
    "        $this->touch('_flash.step15');\n"
    "        $this->touch('_flash.step16');\n"
    "        $this->touch('_flash.step17');\n"
    "        $this->touch('_flash.step18');\n"
    "        $this->touch('_flash.step19');\n"
    "        $this->touch('_flash.step20');\n"
    "        $this->touch('_flash.step21');\n"
    "\n"
    "        $this->put('_flash.old', $this->get('_flash.new', []));\n"
    "\n"
    "        $this->put('_flash.new', []);\n"
    "    }\n"
    "\n"
    "    /**\n"
    "     * Remove the given keys from the old flash data of the session.\n"
    "     *\n"
    "     * @param  array  $keys\n"
    "     * @param  bool  $strict\n"
    "     * @param  string|null  $connection\n"
    "     * @return void\n"
    "     */\n"
    "    protected function removeFromOldFlashData("
    "array $keys, $strict = false, $connection = null)\n"
    "    {\n"
    "        $this->put('_flash.old', array_diff($this->get('_flash.old', []), $keys));\n"
    "    }\n"
    "\n"
    "    /**\n"
    "     * Get the name of the session.\n"
    "     *\n"
    "     * @return string\n"
    "     */\n"
    "    public function getName()\n"
    "    {\n"
    "        return $this->name;\n"
    "    }\n"
    "}\n"
)
_PHP_URLS = (
    "<?php\n"
    "\n"
    "class UrlGenerator\n"
    "{\n"
    "    /**\n"
    "     * Create a signed route URL for a named route.\n"
    "     * @param  \\BackedEnum|string  $name\n"
    "     * @param  mixed  $parameters\n"
    "     * @param  \\DateTimeInterface|\\DateInterval|int|null  $expiration\n"
    "     * @param  bool  $absolute\n"
    "     * @return string\n"
    "     * @throws \\InvalidArgumentException\n"
    "     */\n"
    "    public function signedRoute("
    "$name, $parameters = [], $expiration = null, $absolute = true)\n"
    "        $this->ensureSignedRouteParametersAreNotReserved(\n"
    "            $parameters = Arr::wrap($parameters)\n"
    "        );\n"
    "        if ($expiration) {\n"
    "            $parameters = $parameters + ['expires' => $this->availableAt($expiration)];\n"
    "\n"
    "        $key = call_user_func($this->keyResolver);\n"
    "\n"
    "        return $this->route($name, $parameters + [\n"
    "            'signature' => hash_hmac(\n"
    "                'sha256',\n"
    "                $this->route($name, $parameters, $absolute),\n"
    "                is_array($key) ? $key[0] : $key\n"
    "            ),\n"
    "        ], $absolute);\n"
    "    }\n"
    "\n"
    "    /**\n"
    "     * Ensure the given signed route parameters are not reserved.\n"
    "     *\n"
    "     * @param  mixed  $parameters\n"
    "     * @return void\n"
    "     *\n"
    "     * @throws \\InvalidArgumentException\n"
    "     */\n"
    "    protected function ensureSignedRouteParametersAreNotReserved($parameters)\n"
    "    {\n"
    "        if (array_key_exists('signature', $parameters)) {\n"
    "            throw new InvalidArgumentException(\n"
    '                \'"Signature" is a reserved parameter when generating signed routes. '
    "Please rename your route parameter.'\n"
    "            );\n"
    "        }\n"
    "\n"
    "        if (array_key_exists('expires', $parameters)) {\n"
)


def test_a_passage_of_code_does_not_end_on_the_doc_comment_of_a_definition_it_leaves_out():
    # The passage ran on into `removeFromOldFlashData`'s docblock and ended on its `*/`.
    cut = snippet(_PHP_STORE, "src/Session/Store.php", "flash data session", 1500)
    last = cut.text.rstrip().split("\n")[-1].strip()
    assert not last.startswith(("*", "/*")), cut.text


def test_a_passage_of_code_does_not_end_on_the_comment_heading_the_definitions_below():
    # httpx's _exceptions.py: `TooManyRedirects` was served ending on `# Client errors`,
    # the comment over the next group of classes, two blank lines below it.
    text = (
        'class RouterError(Exception):\n    """Base class for routing errors."""\n\n\n'
        'class TooManyHops(RouterError):\n    """\n    Too many hops.\n    """\n\n\n'
        "# Loop errors...\n\n\n"
        'class LoopDetected(RouterError):\n    """\n    A route came back.\n    """\n'
    )
    cut = snippet(text, "pkg/errors.py", "TooManyHops", 1500)
    assert cut.text.startswith("class TooManyHops(RouterError):"), cut.text
    assert cut.text.endswith('    """'), cut.text


# Textual's actions.py, cut down: a comment inside a function on the statement under it.
_PARSE_ACTION = """import re
from functools import lru_cache

re_action_args = re.compile(r"([\\w\\.]+)\\((.*)\\)")


@lru_cache(maxsize=1024)
def parse(action: str) -> tuple[str, tuple]:
    \"\"\"Parses an action string.

    Args:
        action: String containing action.

    Returns:
        Action name and arguments.
    \"\"\"
    args_match = re_action_args.match(action)
    if args_match is not None:
        action_name, action_args_str = args_match.groups()
        if action_args_str:
            try:
                # We wrap `action_args_str` to be able to disambiguate the cases where
                # the list of arguments is a comma-separated list of values from the
                # case where the argument is a single tuple.
                action_args = ast.literal_eval(f"({action_args_str},)")
            except Exception:
                raise ActionError(f"unable to parse {action_args_str!r}")
        else:
            action_args = ()
    else:
        action_name = action
        action_args = ()
    return action_name, action_args
"""


@pytest.mark.parametrize("max_chars", [1100, 1180, 1260])
def test_a_passage_of_code_does_not_end_on_a_comment_without_the_code_it_is_about(max_chars):
    # "LRU cache class" was served `parse` cut after the first lines of the comment on
    # `ast.literal_eval`, the statement it explains left out: lines saying nothing asked.
    cut = snippet(_PARSE_ACTION, "src/app/actions.py", "lru cache", max_chars)
    last = cut.text.rstrip().split("\n")[-1].strip()
    assert last.startswith("@lru_cache") or not last.startswith("#"), cut.text


def test_a_comment_ending_a_passage_stays_when_it_holds_a_query_word():
    cut = snippet(_PARSE_ACTION, "src/app/actions.py", "lru cache disambiguate", 1100)
    assert "disambiguate" in cut.text, cut.text


def test_a_passage_of_code_does_not_start_inside_a_doc_comment():
    # A second passage started on a docblock's ` */`, under the marker standing for the
    # description it cut off.
    query = "How is a signed URL's signature verified against the app key?"
    cut = snippet(_PHP_URLS, "src/Routing/UrlGenerator.php", query, 1500)
    passages = cut.text.split("\n")
    starts = [passages[0]] + [
        passages[i + 1] for i, line in enumerate(passages[:-1]) if line.startswith("[lines ")
    ]
    assert not any(start.strip().startswith("*") for start in starts), cut.text


@pytest.mark.parametrize(
    ("path", "comment", "opener"),
    [
        # Haskell's haddock above a type signature (pandoc's readMarkdown).
        (
            "src/Markdown.hs",
            "-- | Betaname: read markdown into a document.\n",
            "betaname :: Text\n",
        ),
        # Lua's comments above a function.
        ("lua/tool.lua", "--- Betaname: read the input.\n", "local function betaname(opts)\n"),
        # An Emacs Lisp commentary line above a `defun`.
        ("lisp/tool.el", ";; Betaname: read the input.\n", "(defun betaname (opts)\n"),
    ],
)
def test_a_comment_in_any_language_leads_into_the_definition_under_it(path, comment, opener):
    # A haddock `-- |` was cut off from the signature it documents: `--` and `;;` lines
    # were no lead-in.
    body = "".join(f"  x{n} <- compute{n} opts {n}\n" for n in range(60))
    text = "module Tool where\n\n" + comment + opener + body
    cut = snippet(text, path, "betaname", max_chars=400)
    assert cut.text.startswith(comment), cut.text


_PYTHON_BODY = "".join(f"    def other_{n}(self):\n        return {n}\n\n" for n in range(25))
_RUST_FNS = "".join(
    f"    fn helper_{n}(&self) -> u32 {{\n        {n}\n    }}\n\n" for n in range(20)
)
# One member name defined by two holders: a Python class each, a Go receiver each (gin's
# `Context.JSON`), a Rust `impl` block each.
TWO_HOLDERS = {
    "src/client.py": (
        f"class Client:\n{_PYTHON_BODY}    def stream(self, url):\n        return send(url)\n\n\n"
        f"class AsyncClient:\n{_PYTHON_BODY}    async def stream(self, url):\n"
        "        return await send(url)\n"
    ),
    "context.go": (
        "package gin\n\n"
        "// JSON serializes the given struct as JSON into the response body.\n"
        "func (c *Context) JSON(code int, obj any) {\n"
        "\tc.Render(code, render.JSON{Data: obj})\n}\n\n"
        f"{GO_HELPERS}"
        "// JSON renders a value for a response writer.\n"
        "func (r *Responder) JSON(code int, obj any) {\n\tr.write(code, obj)\n}\n"
    ),
    "src/routing.rs": (
        f"impl Router {{\n{_RUST_FNS}    /// Add a route.\n"
        "    pub fn route(self, path: &str) -> Self {\n"
        "        self.add(path)\n    }\n}\n\n"
        f"impl<S> Handler<S> for MethodRouter<S> {{\n{_RUST_FNS}    /// Route a method.\n"
        "    pub fn route(self, path: &str) -> Self {\n        self.on(path)\n    }\n}\n"
    ),
}


@pytest.mark.parametrize(
    ("path", "query", "start"),
    [
        ("src/client.py", "AsyncClient.stream", "    async def stream(self, url):"),
        ("src/client.py", "Client.stream", "    def stream(self, url):"),
        ("context.go", "Responder.JSON", "// JSON renders a value for a response writer."),
        ("context.go", "Context.JSON", "// JSON serializes the given struct"),
        ("src/routing.rs", "MethodRouter.route", "    /// Route a method."),
        ("src/routing.rs", "Router.route", "    /// Add a route."),
        # Asked in a question, the dotted name is still the member looked up.
        ("src/client.py", "how does AsyncClient.stream close the response", "    async def"),
        ("src/routing.rs", "what does MethodRouter.route do with its path", "    /// Route a"),
    ],
)
def test_a_dotted_name_is_shown_where_the_holder_it_names_defines_it(path, query, start):
    cut = snippet(TWO_HOLDERS[path], path, query, max_chars=300)
    lead, passage = led_by(cut.text)
    assert passage.startswith(start), cut.text
    # Led by that holder's line (a Go method's receiver names it already).
    holder = {"src/client.py": "class {}:", "src/routing.rs": "{}"}.get(path)
    asked = "AsyncClient" if "AsyncClient" in query else "Client"
    if path == "src/routing.rs":
        asked = "impl<S> Handler<S> for MethodRouter<S> {" if "Method" in query else "impl Router {"
    assert lead == ([holder.format(asked)] if holder else []), cut.text


def test_a_member_named_in_parts_is_still_a_name_looked_up():
    # cobra's `Command.PersistentFlags`: the holder counts for no word of the query.
    text = (
        "package cobra\n\n"
        "// HasPersistentFlags checks if the command contains persistent flags.\n"
        "func (c *Command) HasPersistentFlags() bool {\n"
        "\treturn c.PersistentFlags().HasFlags()\n}\n\n"
        f"{GO_HELPERS}"
        "// PersistentFlags returns the persistent FlagSet set in the current command.\n"
        "func (c *Command) PersistentFlags() *flag.FlagSet {\n\treturn c.pflags\n}\n"
    )
    cut = snippet(text, "command.go", "Command.PersistentFlags", max_chars=300)
    assert cut.text.startswith("// PersistentFlags returns the persistent FlagSet")


def test_generated_code_is_told_by_its_name_or_its_first_lines():
    generated = generated_weigher(keys("method not allowed"))
    for path in ("api/reply.pb.go", "proto/reply_pb2.py", "src/types.generated.ts"):
        assert generated(path, ["package x"]), path
    for path in ("src/generator.py", "docs/guide/cli-generated.md", "src/gin.go"):
        assert not generated(path, ["package x"]), path
    # A generated document is still the page to read (Textual's FAQ), unless it says not
    # to edit it: its source is elsewhere (the Rust book's print edition, from `src/`).
    assert not generated("docs/FAQ.md", ["<!-- Auto-generated by FAQtory -->", "# FAQ"])
    print_edition = ["<!-- DO NOT EDIT THIS FILE.", "", "This file is periodically generated"]
    assert generated("nostarch/chapter01.md", [*print_edition, "-->", "# Getting Started"])
    assert generated("docs/FAQ.md", ["---", "hide: [nav]", "---", "<!-- Do not edit by hand! -->"])
    assert generated("docs/api.rst", [".. DO NOT MODIFY: written by make apidoc", "API"])
    # Prose saying so is no mark.
    assert not generated("docs/guide.md", ["# Guide", "", "Do not edit the lock file."])
    assert generated("src/a.go", ["", "// Code generated by stringer. DO NOT EDIT.", "package a"])
    assert generated("src/b.py", ["# @generated by codegen", "x = 1"])
    # Parsers and scanners bison and flex wrote.
    assert generated("src/parser.c", ["/* A Bison parser, made by GNU Bison 3.8.2.  */"])
    lexer = ['#line 2 "src/lexer.c"', "", '#line 4 "src/lexer.c"', "", "#define  YY_INT", ""]
    assert generated("src/lexer.c", [*lexer, "/* A lexical scanner generated by flex */"])
    # Kotlin's binary-compatibility dumps of a module's API.
    assert generated("okhttp/api/android/okhttp.api", ["public final class okhttp3/Address {"])
    assert not generated("src/c.py", ["x = 1"] * 8 + ["# do not edit this by hand"])
    # SQLModel's `_expression_select_gen.py`: "do not modify this code, it is generated by".
    jinja = "# WARNING: do not modify this code, it is generated by _select_gen.py.jinja2"
    assert generated("sqlmodel/sql/_select_gen.py", [jinja, "from typing import Any"])
    # The mark anywhere in the comments a file opens with: dart-lang/http's 1.2 MB FFI
    # bindings open with six lint directives, their "AUTO GENERATED FILE" on line 8.
    bindings = ["// ignore_for_file: type=lint"] * 6 + [
        "",
        "// AUTO GENERATED FILE, DO NOT EDIT.",
        "//",
        "// Generated by `package:ffigen`.",
        "import 'dart:ffi' as ffi;",
    ]
    assert generated("lib/src/native_cupertino_bindings.dart", bindings)
    licence = [
        "/*",
        *[f" * licence line {n}" for n in range(14)],
        " */",
        "// Code generated. DO NOT EDIT.",
    ]
    assert generated("src/gen.go", [*licence, "package gen"])
    code_first = ["package a", *[f"// note {n}" for n in range(6)], "// DO NOT EDIT the table"]
    assert not generated("src/e.go", code_first)  # not the comments the file opens with
    assert not generated_weigher(keys("generated reply"))("api/reply.pb.go", [])
    # A question about the generator asks for the program that writes the code, not the
    # code it wrote (SQLModel's "select overloads generator": `_expression_select_gen.py`
    # came first, undemoted, above scripts/generate_select.py).
    for query, demoted in (("select overloads generator", True), ("generated select", False)):
        terms = query_terms(query)
        weigher = generated_weigher([t.key for t in terms], [t.word for t in terms])
        assert bool(weigher("api/reply.pb.go", [])) == demoted, query


def test_a_manual_page_a_tool_wrote_is_generated():
    # pandoc's pandoc-cli/man/pandoc.1 is MANUAL.txt written in roff by pandoc: both took
    # the budget of a question about the manual, and pushed the page that answers it out.
    generated = generated_weigher(keys("table of contents depth"))
    head = ['.\\" Automatically generated by Pandoc 3.10.2', '.\\"', '.TH "pandoc" "1"']
    assert generated("pandoc-cli/man/pandoc.1", head) is GENERATED
    assert generated("doc/tool.1", ['.\\" DO NOT MODIFY THIS FILE!  It was generated by help2man'])
    assert generated("man/tool.1", ['.\\" generated with Ronn-NG/v0.9.1'])
    assert generated(
        "man/tool.1", ['.\\"     Title: tool', '.\\"    Generator: Asciidoctor 2.0.20']
    )
    assert generated("man/tool.1", ['.\\" Man page generated from reStructuredText.'])
    # A manual page written by hand is the manual.
    assert generated("man/man1/fzf.1", [".ig", '.TH fzf 1 "Jan 2026"']) is None
    # A tool's name is a whole word: "flexible" is no flex.
    assert generated("src/a.c", ["/* generated by flexible craftsmen */", "int x;"]) is None
    # Any other document a tool wrote is still the page to read.
    assert generated("docs/FAQ.md", ["<!-- Auto-generated by FAQtory -->"]) is None


def test_a_bundle_and_a_generated_site_are_told_by_their_last_or_first_lines():
    # Their sources are in the project too: they weigh less than generated code.
    generated = generated_weigher(keys("leave a channel"))
    assert generated("api/reply.pb.go", []) is GENERATED
    # A bundle a build wrote from the sources beside it (Phoenix's priv/static/).
    bundle = ["var Socket = class {", "  leave() {}", "};", "//# sourceMappingURL=app.cjs.js.map"]
    assert generated("priv/static/app.cjs.js", [*bundle, ""]) is BUILT_OUTPUT
    assert generated("dist/app.css", ["a{}", "/*# sourceMappingURL=app.css.map */"]) is BUILT_OUTPUT
    # A bundle without one, told by its bundler's runtime at the top (esbuild, webpack).
    esbuild = ["var Phoenix = (() => {", "  var __defProp = Object.defineProperty;", "  x();"]
    assert generated("priv/static/phoenix.js", esbuild) is BUILT_OUTPUT
    webpack = ["/******/ (() => { // webpackBootstrap", "/******/ \tvar __webpack_modules__ = {"]
    assert generated("build/main.js", webpack) is BUILT_OUTPUT
    # Browserify's prelude, old and new (Hugo's livereload/livereload.js).
    prelude = (
        '(function(){function r(e,n,t){function o(i,f){if(!n[i]){if(!e[i]){var c="function"'
        "==typeof require&&require;if(!f&&c)return c(i,!0);if(u)return u(i,!0);var a=new "
        'Error("Cannot find module \'"+i+"\'");throw a.code="MODULE_NOT_FOUND",a}'
    )
    assert generated("livereload/livereload.js", [prelude, "module.exports = 1;"]) is BUILT_OUTPUT
    old_prelude = (
        "(function e(t,n,r){function s(o,u){if(!n[o]){if(!t[o]){var a=typeof require=="
        '"function"&&require;if(!u&&a)return a(o,!0);if(i)return i(o,!0);var f=new Error('
        '"Cannot find module \'"+o+"\'");throw f.code="MODULE_NOT_FOUND",f}'
    )
    assert generated("static/bundle.js", [old_prelude]) is BUILT_OUTPUT
    # Node's own error code, thrown by code written by hand, is no bundle.
    resolver = ["const err = new Error(`No module '${id}'`);", "err.code = 'MODULE_NOT_FOUND';"]
    assert not generated("src/resolve.js", resolver)
    assert not generated("src/define.js", ["Object.defineProperty(exports, 'x', {});"])
    # A source map's link inside the code (a build tool's own source) is no trailer.
    tool = ["const trailer = '//# sourceMappingURL=' + name;", "export { trailer };"]
    assert not generated("src/emit.js", tool)
    # A site a documentation generator wrote: its footer or its generator meta tag.
    page = ["<html>", "<body>", "<p>Session</p>"]
    footer = ["<p>Generated by <a href='https://github.com/realm/jazzy'>jazzy</a>.</p>"]
    assert (
        generated("docs/Classes/Session.html", [*page, *footer, "</body>", "</html>"])
        is BUILT_OUTPUT
    )
    head = ["<!DOCTYPE html>", "<html>", "<head>", '<meta name="generator" content="javadoc/17">']
    assert generated("api/Session.html", [*head, *page]) is BUILT_OUTPUT
    # A page written by hand that mentions generating something is not.
    assert not generated("site/index.html", [*page, "<p>Code generated by our tool.</p>"])


def test_a_rollup_bundle_is_told_by_its_wrappers_at_the_top():
    # Rails commits rollup's output (actiontext/app/assets/javascripts/actiontext.esm.js,
    # a copy of activestorage's direct_upload.js among others): no source map, no runtime,
    # but rollup's own wrappers open it.
    generated = generated_weigher(keys("direct upload checksum"))
    wrapped = ["var sparkMd5 = {", "  exports: {}", "};", "", "(function(module, exports) {"]
    assert generated("app/assets/javascripts/actiontext.esm.js", wrapped) is BUILT_OUTPUT
    helpers = ['var commonjsGlobal = typeof globalThis !== "undefined" ? globalThis : {};']
    assert generated("app/assets/javascripts/activestorage.esm.js", helpers) is BUILT_OUTPUT
    umd = [
        "(function(global, factory) {",
        '  typeof exports === "object" && typeof module !== "undefined" ? factory(exports) : '
        '(global = typeof globalThis !== "undefined" ? globalThis : global || self, ',
        "  factory(global.ActionCable = {}));",
        "})(this, (function(exports) {",
    ]
    assert generated("app/assets/javascripts/actioncable.js", umd) is BUILT_OUTPUT
    # Code written by hand that uses the same words further down is no bundle (Vite's
    # tests of its CSS plugin hold rollup's UMD line in a string).
    spec = ["import { test } from 'vitest'", "", "test('umd', () => {"] * 4
    assert not generated(
        "src/css.spec.ts",
        [*spec, "  'typeof globalThis !== \"undefined\" ? globalThis : global || self'"],
    )
    assert not generated("src/shim.js", ["const exported = {", "  exports: {}", "};"])


PINIA_STYLE = """\
/**
 * Extracts the return type for `storeToRefs`.
 * Will convert any `getters` into `ComputedRef`.
 */
export type StoreToRefs<SS extends StoreGeneric> =
  SS extends unknown
    ? _ToStateRefs<SS> & ToRefs<PiniaCustomStateProperties<StoreState<SS>>>
    : never

/**
 * Creates an object of references with all the state, getters, and plugin-added
 * state properties of the store.
 *
 * @param store - store to extract the refs from
 */
export function storeToRefs<SS extends StoreGeneric>(
  store: SS
): StoreToRefs<SS> {
  const rawStore = toRaw(store)
  const refs = {} as StoreToRefs<SS>
  for (const key in rawStore) {
    const value = rawStore[key]
    if (isRef(value) || isReactive(value)) {
      refs[key] = toRef(store, key)
    }
  }
  return refs
}
"""


def test_a_name_looked_up_is_shown_at_its_implementation_rather_than_its_type():
    # pinia: `type StoreToRefs` and `function storeToRefs` share a name; the question is
    # about the function unless it asks about types.
    cut = snippet(PINIA_STYLE, "src/storeToRefs.ts", "storeToRefs implementation", max_chars=700)
    assert "if (isRef(value) || isReactive(value)) {" in cut.text, cut.text
    cut = snippet(PINIA_STYLE, "src/storeToRefs.ts", "StoreToRefs type", max_chars=300)
    assert cut.text.startswith("/**\n * Extracts the return type"), cut.text


def test_a_word_about_tests_that_the_code_holds_throughout_is_its_subject():
    code = {f"src/part{n}.ts": {"test", "run"} for n in range(20)}
    assert without_the_subject({"test", "run"}, code) == {"run"}
    few = dict(list(code.items())[:5])  # too few files to tell
    assert without_the_subject({"test", "run"}, few) == {"test", "run"}
    rare = {path: {"run"} for path in code} | {"src/part0.ts": {"test", "run"}}
    assert without_the_subject({"test", "run"}, rare) == {"test", "run"}
    tests = {f"tests/test_{n}.py": {"test"} for n in range(40)} | rare
    assert without_the_subject({"test"}, tests) == {"test"}  # the tests themselves say nothing


def test_files_matching_only_the_word_about_tests_do_not_make_it_the_subject():
    # just: a Rust crate's inline `#[cfg(test)]` modules; 43 of its files matched the
    # question only by `test`, and made up half the files that matched `fallback test`.
    inline = {f"src/mod{n}.rs": {"test"} for n in range(43)}
    about = {f"src/part{n}.rs": {"fallback"} for n in range(40)} | {
        "src/settings.rs": {"fallback", "test"}
    }
    assert without_the_subject({"test", "fallback"}, inline | about) == {"test", "fallback"}
    # Its question in words: 43 of the 85 files matching it hold `test` (their inline
    # modules), no subject as vitest's code says `test` throughout.
    inline = {f"src/mod{n}.rs": {"test", "search"} for n in range(43)}
    about = {f"src/part{n}.rs": {"search"} for n in range(42)}
    assert without_the_subject({"test", "search"}, inline | about) == {"test", "search"}


def _bordered(rows: int) -> str:
    filler = "".join(
        f"| `style{n}` | Filler description number {n} of the table. |\n" for n in range(rows)
    )
    return (
        "# Borders\n\n" + "Intro words about borders and their looks.\n" * 12 + "\n"
        "| Border type | Description |\n|---|---|\n"
        + filler
        + "| `dashed` | A dashed line border for the widget. |\n"
        + "| `heavy` | A heavy line. |\n\n"
        + "Closing words.\n" * 20
    )


def test_a_passage_inside_a_long_table_is_led_by_the_tables_header():
    cut = snippet(_bordered(30), "docs/border.md", "dashed line border", max_chars=600)
    shown = cut.text.splitlines()
    # The section's heading, then the table's header, each before the lines left out.
    assert shown[0] == "# Borders", cut.text
    assert shown[2:4] == ["| Border type | Description |", "|---|---|"], cut.text
    assert left_out_lines(shown[1]) is not None and left_out_lines(shown[4]) is not None
    assert "| `dashed` | A dashed line border for the widget. |" in shown
    assert cut.line_start == 1


def test_a_passage_inside_a_short_table_starts_at_its_header():
    cut = snippet(_bordered(2), "docs/border.md", "dashed line border", max_chars=300)
    shown = cut.text.splitlines()
    # Led by the section's heading (room made from the prose after the table).
    assert shown[0] == "# Borders", cut.text
    assert shown[2] == "| Border type | Description |", cut.text
    assert [line for line in shown if left_out_lines(line)] == [shown[1]]


C_STYLE = (
    '#include "jq.h"\n\n'
    + "".join(
        f"static int helper{n}(int x) {{\n  return jq_next_{n}(x);\n}}\n\n" for n in range(20)
    )
    + "int caller(jq_state *jq) {\n  jv value = jq_next(jq);\n  return 0;\n}\n\n"
    + "/* Run the program until it yields its next output. */\n"
    "jv jq_next(jq_state *jq) {\n  jv_nomem_handler(jq->nomem_handler, jq->nomem_handler_data);\n"
    "  return jq_step(jq);\n}\n\n"
    "static struct bytecode *\ngen_reduce(block source, block matcher)\n{\n  return NULL;\n}\n"
)
JAVA_STYLE = (
    "public class Account {\n"
    + "".join(
        f"    public int helper{n}(int x) {{\n        return x + {n};\n    }}\n\n"
        for n in range(20)
    )
    + "    public void report() {\n        applyInterest(0.1);\n    }\n\n"
    "    /** Adds a year's interest to the balance. */\n"
    "    public synchronized void applyInterest(double rate) throws LedgerException {\n"
    "        balance += balance * rate;\n    }\n"
    "}\n"
)
KOTLIN_STYLE = (
    "class Parser {\n"
    + "".join(
        f"    fun helper{n}(x: Int): Int {{\n        return x + {n}\n    }}\n\n" for n in range(20)
    )
    + "    fun run() {\n        parseTokens(source)\n    }\n\n"
    "    private fun parseTokens(source: String): List<Token> {\n"
    "        return lex(source)\n    }\n"
    "}\n"
)

CPP_STYLE = (
    "class json_pointer\n{\n  public:\n"
    + "".join(
        f"    int helper{n}(int x) const\n    {{\n        return x + {n};\n    }}\n\n"
        for n in range(20)
    )
    + "    void report()\n    {\n        auto flat = unflatten(value);\n    }\n\n"
    "    /// @brief the object from its flattened form\n"
    "    template<typename BasicJsonType>\n    static BasicJsonType\n"
    "    unflatten(const BasicJsonType& value)\n    {\n        return value;\n    }\n};\n"
)


@pytest.mark.parametrize(
    ("path", "text", "query", "start"),
    [
        ("src/execute.c", C_STYLE, "jq_next", "/* Run the program until it yields"),
        # GNU style: the return type on its own line, the brace on the next.
        ("src/compile.c", C_STYLE, "gen_reduce", "static struct bytecode *\ngen_reduce("),
        ("src/Account.java", JAVA_STYLE, "applyInterest", "    /** Adds a year's interest"),
        ("src/Account.java", JAVA_STYLE, "Account.applyInterest", "    /** Adds a year's"),
        ("src/Parser.kt", KOTLIN_STYLE, "parseTokens", "    private fun parseTokens("),
        # nlohmann/json: a member's return type on the line above its name.
        (
            "include/json_pointer.hpp",
            CPP_STYLE,
            "unflatten",
            "    /// @brief the object from its flattened form\n    template<typename",
        ),
    ],
    ids=["c", "c-gnu-style", "java", "java-holder", "kotlin", "c++-type-above"],
)
def test_a_function_of_the_c_family_is_shown_at_its_definition(path, text, query, start):
    cut = snippet(text, path, query, max_chars=200)
    assert led_by(cut.text)[1].startswith(start), cut.text


MKDOCS_INDENTED = (
    "# Throttling\n\n" + "Throttles limit how often clients may call.\n" * 30 + "\n"
    "## Setting the throttling policy\n\n"
    + "A policy says which clients wait and for how long before calling again.\n"
    * 6
    + "\nThe default policy may be set globally with these settings:\n\n"
    "    REST_FRAMEWORK = {\n"
    "        'DEFAULT_THROTTLE_CLASSES': [\n"
    "            'rest_framework.throttling.AnonRateThrottle',\n"
    "        ],\n\n"
    "        'DEFAULT_THROTTLE_RATES': {\n"
    "            'anon': '100/day',\n"
    "        }\n"
    "    }\n\n"
    "The rates may be given per second, minute, hour or day.\n\n"
    "## Other\n\n" + "Unrelated words.\n" * 30
)
SPHINX_CODE_BLOCK = (
    "Deprecations\n============\n\n" + "Old behaviour is listed here.\n" * 30 + "\n"
    "Example of problematic code:\n\n"
    ".. code-block:: python\n\n"
    "    import pytest\n\n\n"
    "    def data_generator():\n"
    "        yield 1\n\n\n"
    '    @pytest.mark.parametrize("n", data_generator())\n'
    "    class Test:\n"
    "        def test_one(self, n):\n"
    "            pass\n\n"
    "Other\n=====\n\n" + "Unrelated words.\n" * 30
)


@pytest.mark.parametrize(
    ("path", "text", "query", "start"),
    [
        # Markdown's indented code block: from its first line.
        ("docs/throttling.md", MKDOCS_INDENTED, "anon rate 100/day", "    REST_FRAMEWORK = {"),
        # reStructuredText's: from the directive that opens it.
        ("doc/deprecations.rst", SPHINX_CODE_BLOCK, "parametrize data_generator class", ".. code"),
    ],
    ids=["markdown", "restructuredtext"],
)
def test_a_passage_starting_inside_an_indented_code_block_starts_where_it_opens(
    path, text, query, start
):
    cut = snippet(text, path, query, max_chars=400)
    # After the section's heading and the marker for the lines left out.
    assert f"not shown]\n{start}" in cut.text, cut.text


@pytest.mark.parametrize("opener", ["!!! note", '??? tip "Cleaning up"', '=== "Linux"'])
def test_a_passage_inside_an_admonition_or_a_tab_starts_at_the_line_opening_it(opener):
    # uv's github.md: a passage started on a link definition inside a `!!! note`, and
    # read without it as markdown's indented code.
    text = MKDOCS_ADMONITION.replace("!!! note", opener)
    cut = snippet(text, "docs/github.md", "runner cleanup script", max_chars=900)
    assert f"not shown]\n{opener}\n" in cut.text, cut.text


def test_a_name_looked_up_shows_its_definition_up_to_the_cap():
    # APIView.dispatch: a function too long to serve whole is served from its signature
    # on, as far as the cap allows, not as its head alone.
    body = "".join(f"        step_{n} = self.handle_step({n}, request)\n" for n in range(40))
    text = (
        "class APIView:\n"
        + "".join(f"    def other_{n}(self):\n        return {n}\n\n" for n in range(10))
        + "    # Note: views are made CSRF exempt from within `as_view`.\n"
        "    def dispatch(self, request, *args, **kwargs):\n"
        '        """\n        Dispatch the incoming request to the appropriate handler method.\n\n'
        "        1. Wraps the incoming request.\n        2. Performs the checks.\n"
        '        """\n' + body + "        return self.response\n\n"
        "    def after(self):\n        return None\n"
    )
    cut = snippet(text, "views.py", "APIView.dispatch", max_chars=1500)
    lead, passage = led_by(cut.text)
    assert lead == ["class APIView:"], cut.text
    assert passage.startswith("    # Note: views are made CSRF exempt"), cut.text
    assert len(cut.text) > 1200, cut.text
    assert "def after" not in cut.text


@pytest.mark.parametrize(
    ("path", "text", "query", "ending"),
    [
        ("store.rb", "module Store\n" + "".join(
            f"  # Helper {n} formats a value for display.\n  def self.helper_{n}(value)\n"
            "    value.inspect\n  end\n\n" for n in range(20)
        ).replace("  # Helper 6 ", "  # Fetch the value for a key.\n  def self.fetch(store, key)\n"
                  "    store[key]\n  end\n\n  # Helper 6 ") + "end\n", "Store.fetch", "  end"),
        ("store.ex", "defmodule Store do\n" + "".join(
            f'  @doc "Helper {n} formats a value."\n  def helper_{n}(value) do\n'
            "    inspect(value)\n  end\n\n" for n in range(20)
        ).replace('  @doc "Helper 6 ', '  @doc "Fetches the value for a key."\n'
                  "  def fetch(store, key) do\n    Map.get(store, key)\n  end\n\n"
                  '  @doc "Helper 6 ') + "end\n", "Store.fetch", "  end"),
        ("store.py", "class Store:\n" + "".join(
            f"    def helper_{n}(self, value):\n        return repr(value)\n\n" for n in range(40)
        ).replace("    def helper_6(",
                  "    def fetch(self, key):\n        return self.data[key]\n\n    def helper_6("),
         "Store.fetch", "        return self.data[key]"),
    ],
    ids=["ruby", "elixir", "python"],
)  # fmt: skip
def test_a_name_looked_up_and_served_whole_does_not_run_on_into_the_next(path, text, query, ending):
    # Elixir's `Map.keys` served 84 lines of map.ex for a 13-line answer: a definition
    # shown whole was run on to the cap within the module around it.
    cut = snippet(text, path, query, max_chars=1500)
    assert cut.text.rstrip("\n").endswith(ending), cut.text
    assert "helper_6" not in cut.text, cut.text


def test_a_passage_inside_a_long_section_is_led_by_the_sections_heading():
    filler = "".join(
        f"Paragraph {n} says something unrelated at some length here.\n\n" for n in range(30)
    )
    text = (
        "# Guide\n\nIntro.\n\n## Initial state\n\n"
        + filler
        + "Pass collapsed=False to start the collapsible expanded.\n\n"
        + filler
    )
    cut = snippet(text, "docs/collapsible.md", "collapsed expanded", max_chars=400)
    shown = [line for line in cut.text.splitlines() if line]
    assert shown[0] == "## Initial state", cut.text
    # with the paragraph opening the section (a test below), then the lines left out
    assert shown[1] == "Paragraph 0 says something unrelated at some length here.", cut.text
    assert left_out_lines(shown[2]) is not None
    assert "Pass collapsed=False to start the collapsible expanded." in shown


def test_a_code_passage_inside_a_long_function_is_led_by_its_signature():
    steps = "".join(f"        step_{n} = self.handle_step({n}, module)\n" for n in range(40))
    text = (
        "class Propagator:\n"
        "    def propagate_update(self, module, boundaries):\n"
        + steps
        + "        for importer in module.importers:\n"
        "            if importer.accepts_update(module):\n"
        "                boundaries.add(importer)\n" + steps
    )
    cut = snippet(text, "src/hmr.py", "importer accepts update boundaries", max_chars=400)
    shown = cut.text.splitlines()
    assert shown[0] == "    def propagate_update(self, module, boundaries):", cut.text
    assert left_out_lines(shown[1]) is not None
    assert "            if importer.accepts_update(module):" in shown
    # A signature wrapped over lines, and a comment among the statements.
    wrapped = (
        "function propagateUpdate(\n  node: ModuleNode,\n  boundaries: Boundary[],\n): boolean {\n"
        + steps.replace("        ", "  ").replace("self.", "")
        + "  // An importer that accepts the update is a boundary.\n"
        "  for (const importer of node.importers) {\n"
        "    if (importer.acceptsUpdate(node)) boundaries.push(importer)\n  }\n"
        + steps.replace("        ", "  ").replace("self.", "")
        + "}\n"
    )
    cut = snippet(wrapped, "src/hmr.ts", "importer accepts update boundaries", max_chars=400)
    assert cut.text.startswith("function propagateUpdate(\n[lines 2-"), cut.text


def test_a_passage_in_a_class_is_led_by_the_first_sentence_of_the_comment_above_it():
    # RuboCop's todo_audit.rb: "where is the code that finds stale exclusions in the
    # generated todo file" served `class TodoAudit` over a method; the comment above the
    # class ("Audits `.rubocop_todo.yml` for `Exclude` entries that are no longer needed")
    # says what it is for, as a Python class's docstring does under it.
    methods = "".join(f"    def step_{n}\n      @slot_{n} = {n}\n    end\n\n" for n in range(20))
    ruby = (
        "module RuboCop\n"
        "  # Audits the todo file for exclusions that are no longer\n"
        "  # needed: files a cop would not flag anymore. Used by the\n"
        "  # `--report-unused-todo-entries` option.\n"
        "  # @api private\n"
        "  class TodoAudit\n"
        + methods
        + "    def stale(entry)\n      entry.files.reject { |file| flagged?(file) }\n    end\n"
        "  end\nend\n"
    )
    cut = snippet(ruby, "lib/todo_audit.rb", "stale entry files flagged", max_chars=400)
    shown = cut.text.splitlines()
    assert shown[0] == "  # Audits the todo file for exclusions that are no longer", cut.text
    assert "  class TodoAudit" in shown[:5], cut.text
    assert "      entry.files.reject { |file| flagged?(file) }" in shown
    # Serilog's Logger.cs: a C# class's `/// <summary>`, led into from its first words.
    fields = "".join(f"    readonly object _field{n};\n" for n in range(25))
    csharp = (
        "namespace Acme;\n\n"
        "/// <summary>\n"
        "/// The core pipeline. A pipeline must be disposed to flush any\n"
        "/// events buffered within it.\n"
        "/// </summary>\n"
        "public sealed class Pipeline : IDisposable\n{\n"
        + fields
        + "    public void Dispose()\n    {\n        _dispose?.Invoke();\n    }\n}\n"
    )
    cut = snippet(csharp, "src/Pipeline.cs", "dispose pipeline", max_chars=300)
    assert "/// The core pipeline. A pipeline must be disposed to flush any" in cut.text, cut.text
    assert "    public void Dispose()" in cut.text, cut.text


def test_a_methods_passage_is_led_by_its_class_and_the_first_line_of_its_docstring():
    # Textual's events.py: "resize event virtual size" served `def __init__(` of a class
    # it never named, and not the docstring saying what the class is for.
    members = "".join(f"    slot_{n}: int = {n}\n" for n in range(30))
    text = (
        "class Resize(Event, bubble=False):\n"
        '    """Sent when the app or widget has been resized.\n\n'
        "    Args:\n        size: The new size.\n"
        '    """\n\n'
        + members
        + "\n    def __init__(self, size: Size, virtual_size: Size) -> None:\n"
        "        self.size = size\n"
        "        self.virtual_size = virtual_size\n"
    )
    # (a docstring whose later paragraphs hold none of the query: its first line leads)
    quiet = text.replace("size: The new size.", "event: The event.")
    cut = snippet(quiet, "src/events.py", "resize virtual size", max_chars=400)
    shown = cut.text.splitlines()
    assert shown[:2] == [
        "class Resize(Event, bubble=False):",
        '    """Sent when the app or widget has been resized.',
    ], cut.text
    assert left_out_lines(shown[2]) is not None, cut.text
    assert "    def __init__(self, size: Size, virtual_size: Size) -> None:" in shown
    # One whose `Args:` name `size` too is served whole, the class's definition with it
    # (code_blocks.block_heads), then the method.
    cut = snippet(text, "src/events.py", "resize virtual size", max_chars=400)
    shown = cut.text.splitlines()
    assert shown[:6] == [
        "class Resize(Event, bubble=False):",
        '    """Sent when the app or widget has been resized.',
        "",
        "    Args:",
        "        size: The new size.",
        '    """',
    ], cut.text
    assert left_out_lines(shown[6]) is not None, cut.text
    assert "    def __init__(self, size: Size, virtual_size: Size) -> None:" in shown
    # A docstring opening on a line of its own: its first words are on the line under it.
    opened = text.replace('"""Sent when', '"""\n    Sent when')
    shown = snippet(opened, "src/events.py", "resize virtual size", max_chars=400).text
    assert shown.splitlines()[:3] == [
        "class Resize(Event, bubble=False):",
        '    """',
        "    Sent when the app or widget has been resized.",
    ], shown
    # Room is made at the window's end from lines holding only what the lines left hold:
    # Resize's `__init__` says `size` on every line, to the cap.
    dense = text.replace(
        "        self.virtual_size = virtual_size\n",
        "".join(f"        self.size_{n} = virtual_size.size_{n}\n" for n in range(30)),
    )
    cut = snippet(dense, "src/events.py", "resize virtual size", max_chars=400)
    shown = cut.text.splitlines()
    # (the window starts in the method's body: led by the method's line, and the line
    # between shown, as it takes no more room than a marker for it would)
    assert shown[:3] == [
        "    def __init__(self, size: Size, virtual_size: Size) -> None:",
        "        self.size = size",
        "        self.size_0 = virtual_size.size_0",
    ], cut.text
    assert len(cut.text) <= 400
    # ...never from a line defining a name: clap's `pub fn get_one<` under a doc comment
    # that fills the cap and says `get_one` too.
    doc = "".join(f'    /// let v{n} = m.get_one("port{n}");\n' for n in range(12))
    rust = (
        "impl ArgMatches {\n"
        + "".join(
            f"    pub fn other_{n}(&self) -> u32 {{\n        {n}\n    }}\n\n" for n in range(20)
        )
        + "    /// Gets the value of a specific option.\n"
        + doc
        + "    pub fn get_one<T: Any>(&self, id: &str) -> Option<&T> {\n"
        + "        self.get(id)\n    }\n}\n"
    )
    cut = snippet(rust, "src/arg_matches.rs", "ArgMatches::get_one", max_chars=560)
    assert "    pub fn get_one<T: Any>(&self, id: &str) -> Option<&T> {" in cut.text, cut.text
    # A window too long for its lead is narrowed to one that leaves room for it and
    # still holds every query word (Textual's Navigator.back and .forward).
    others = "".join(f"    def other_{n}(self):\n        return {n}\n\n" for n in range(20))
    navigator = (
        'class Navigator:\n    """Manages a stack of paths like a browser."""\n\n'
        + others
        + "    def go(self, location):\n"
        + "".join(f"        self.back_stack_{n}.append(location)\n" for n in range(6))
        + "".join(f"        self.unrelated_{n} = compute({n})\n" for n in range(4))
        + "        self.forward_stack.clear()\n        return location\n"
    )
    cut = snippet(navigator, "src/navigator.py", "navigator back forward", max_chars=420)
    lead, passage = led_by(cut.text)
    assert lead == ["    def go(self, location):"], cut.text
    assert "back_stack" in passage and "self.forward_stack.clear()" in passage, cut.text
    # A header wrapped over a few lines is read whole, down to the docstring's first words
    # (Textual's `def on(`, whose docstring says it is the decorator).
    wrapped = text.replace(
        "class Resize(Event, bubble=False):\n",
        "class Resize(\n    Event,\n    bubble=False,\n):\n",
    )
    shown = snippet(wrapped, "src/events.py", "resize virtual size", max_chars=400).text
    assert shown.splitlines()[:5] == [
        "class Resize(",
        "    Event,",
        "    bubble=False,",
        "):",
        '    """Sent when the app or widget has been resized.',
    ], shown
    # A class without a docstring is led by its line alone.
    bare = text.replace(
        '    """Sent when the app or widget has been resized.\n\n'
        "    Args:\n        size: The new size.\n"
        '    """\n',
        "",
    )
    shown = snippet(bare, "src/events.py", "resize virtual size", max_chars=400).text
    assert shown.splitlines()[0] == "class Resize(Event, bubble=False):", shown
    assert left_out_lines(shown.splitlines()[1]) is not None, shown


def test_a_versioned_edition_of_the_docs_weighs_less_unless_the_query_asks_about_versions():
    # jq keeps each release's manual (`manual/v1.6/`), Docusaurus its `versioned_docs/`,
    # a book its first edition (`notebooks_v1/`): the same page again, older.
    editions = [
        "docs/manual/v1.6/colors.md", "website/versioned_docs/version-2.x/intro.md",
        "notebooks_v1/02.00-Introduction-to-NumPy.ipynb", "docs/1.x/guide.md",
        "docs/v2/api.md", "docs/version-1.0.0/setup.md", "docs/content/manual/v1.4/manual.yml",
        # Svelte keeps the API before runes in `99-legacy/`: "a reactive derived value in
        # runes mode" got `02-legacy-reactive-assignments.md` before `03-$derived.md`.
        "documentation/docs/99-legacy/02-legacy-reactive-assignments.md", "docs/legacy/api.md",
    ]  # fmt: skip
    current = [
        "docs/manual/colors.md", "docs/manual/dev/colors.md", "docs/guide.md",
        "notebooks/02.00-Introduction-to-NumPy.ipynb", "src/api/v1/routes.py",
        "docs/versioning.md", "docs/envoy.md", "docs/content/manual/dev/manual.yml",
        "api/v1/openapi.yaml", "deploy/v2/values.yml", "docs/legacy-systems.md",
        "src/pip/_internal/resolution/legacy/resolver.py", "docs/legacy_guide/intro.md",
    ]  # fmt: skip
    demoted = dict.fromkeys(editions, VERSIONED_WEIGHT)
    assert demoted_files(editions + current, keys("change the colors of null")) == demoted
    for query in (
        "colors in version 1.6", "what changed in 1.6", "old versions of the manual",
        "legacy reactive assignments",
    ):  # fmt: skip
        assert demoted_files(editions, keys(query)) == {}, query


def test_the_newest_edition_of_a_page_among_the_files_found_is_the_current_one():
    # Express keeps every version's docs (`api/3x/`, `api/4x/`, `api/5x/`): the newest of
    # a page is current. A page only an older version has is older too when a newer
    # version's folder (named alike: `5x`, not `v10`) holds pages found: urfave/cli's v3
    # renamed v2's `examples/flags.md` to `examples/flags/basics.md`.
    # jq's `manual/dev/` names no version: it is current, every numbered manual older.
    found = [
        "api/3x/response.md", "api/4x/response.md", "api/5x/response.md",
        "api/3x/middleware.md", "api/v4/request.md", "api/v10/request.md",
        "manual/v1.7/manual.md", "manual/v1.8/manual.md", "manual/dev/manual.md",
        "docs/v2/setup.md", "docs/setup.md",
        "website/versioned_docs/version-2.x/intro.md", "docs/intro.md",
        # grafana/k6-docs: `next/` and a folder per release, `v0.47.x/` to `v2.2.x/`.
        "k6/v0.47.x/using-k6/checks.md", "k6/v2.2.x/using-k6/checks.md",
        "k6/next/using-k6/checks.md",
        # Folders named otherwise are no newer versions of each other.
        "guide/v2/intro.md", "guide/3x/setup.md",
    ]  # fmt: skip
    role_of = role_weigher(keys("set a cookie on the response"), found=found)

    demoted = {path for path in found if role_of(path).weight < 1}

    assert demoted == {
        "api/3x/response.md", "api/4x/response.md", "api/v4/request.md", "api/3x/middleware.md",
        "manual/v1.7/manual.md", "manual/v1.8/manual.md", "docs/v2/setup.md",
        "website/versioned_docs/version-2.x/intro.md",
        "k6/v0.47.x/using-k6/checks.md", "k6/v2.2.x/using-k6/checks.md",
    }  # fmt: skip
    assert role_weigher(keys("response in version 4"), found=found)("api/4x/response.md") is AS_IS


def test_code_kept_for_an_older_major_version_weighs_less_beside_the_current_code():
    # pydantic ships its previous major version as `pydantic/v1/`: `pydantic/v1/networks.py`
    # came first for "email validator import", before `pydantic/networks.py`. An API's
    # `api/v1/` and `api/v2/` handlers are both current code; so is a `v1/` alone.
    found = [
        "pydantic/networks.py", "pydantic/v1/networks.py", "pydantic/v1/typing.py",
        "api/v1/users.go", "api/v2/users.go", "server/legacy/auth.py",
    ]  # fmt: skip
    role_of = role_weigher(keys("email validator import"), found=found)

    demoted = {path for path in found if role_of(path).weight < 1}

    assert demoted == {"pydantic/v1/networks.py"}
    assert (
        role_weigher(keys("email validator in v1"), found=found)("pydantic/v1/networks.py") is AS_IS
    )
    assert role_weigher(keys("email validator import"))("pydantic/v1/networks.py") is AS_IS


def test_a_version_folder_is_told_by_its_number():
    assert [version_number(name) for name in ("v1.6", "version-2.x", "1.x", "5x", "2.0")] == [
        (1, 6), (2,), (1,), (5,), (2, 0),
    ]  # fmt: skip
    assert version_number("v0.47.x") == (0, 47)
    assert version_number("versioned_docs") is None
    assert version_number("99-legacy") is None
    assert version_number("dev") is None


def assert_fences_read_as_written(text: str, cap: int) -> None:
    """The fences a snippet shows pair up, and no code comes before the first: a closing
    fence shown alone opens a block (and one left open turns what follows into code)."""
    fences = [line for line in text.split("\n") if line.startswith("```")]
    assert len(fences) % 2 == 0, (cap, text)
    if fences:
        before = text.split("```")[0].split("\n")
        assert [line for line in before if line.startswith(("fn ", "    "))] == [], (cap, text)


def test_a_passage_starting_inside_a_fenced_block_never_shows_its_closing_fence_alone():
    # Rust by Example's impl_trait.md for "how do I read lines from a file": the snippet
    # started on the block's first line of code, its fence left out (the section's
    # heading shown instead), and ran on past the block: its closing fence then opened a
    # block, and prose and code read the other way round.
    block = "\n".join(
        [
            "```rust,editable",
            "fn parse_table<R: std::io::BufRead>(src: R) -> std::io::Result<Vec<String>> {",
            "    src.lines()",
            "        .map(|line| {",
            "            // For each line read from the source",
            "            line.map(|line| {",
            "                // If the line was read, split it, else return the error",
            "                line.split(',') // The cells are separated by commas",
            "                    .map(|cell| String::from(cell.trim())) // No spaces around",
            "                    .collect() // Collect the cells of a row into a Vec",
            "            })",
            "        })",
            "        .collect() // Collect all lines into a Vec",
            "}",
            "```",
        ]
    )
    text = (
        "# `impl Trait`\n\n`impl Trait` can be used in two places:\n\n1. as an argument\n"
        "2. as a return type\n\n## As an argument type\n\n"
        + "If the function is generic over a trait but the type does not matter, say so. " * 3
        + "\n\nFor example:\n\n"
        + block
        + "\n\n`parse_table` is generic, taking any type that implements BufRead, such as "
        "`BufReader<File>`,\nso the function can also be written as:\n\n"
        + block.replace("<R: std::io::BufRead>(src: R)", "(src: impl std::io::BufRead)")
        + "\n\nNote that the form of the function cannot be named then.\n"
    )
    for cap in range(900, 1700, 100):
        cut = snippet(text, "src/trait/impl_trait.md", "how do I read lines from a file", cap, 300)
        assert_fences_read_as_written(cut.text, cap)


def test_a_passage_inside_a_fenced_block_never_leaves_it_open():
    # Rust by Example's print_display.md for "derive Debug": a passage from inside the
    # example's block, its opening fence shown, ran to the cap, and neither the block's
    # closing fence nor an end before the block fitted: the snippet ended in an open block.
    # Then the passage shows no fence.
    intro = "".join(f"Formatting line {n} says how a value is shown.\n" for n in range(40))
    body = ["use std::fmt;", "", "// `Debug` is derived to compare with `Display`."]
    for name in ("MinMax", "Point2D"):
        body += ["#[derive(Debug)]", f"struct {name}(i64, i64);", ""]
        body += [f"impl fmt::Display for {name} {{", "    fn fmt(&self) -> fmt::Result {"]
        body += ['        write!(f, "({}, {})", self.0, self.1)', "    }", "}", ""]
    body += ["fn main() {"]
    body += [f'    println!("Debug: {{:?}}", value{n});' for n in range(12)]
    body += ["    // Neither `Debug` nor `Display` would compile here.", "}"]
    text = "# Display\n\n" + intro + "\n```rust,editable\n" + "\n".join(body) + "\n```\n\nDone.\n"
    for cap in range(500, 1700, 100):
        cut = snippet(text, "src/print_display.md", "derive Debug", cap, 300)
        assert_fences_read_as_written(cut.text, cap)


def test_a_passage_inside_a_long_fenced_block_shows_its_fences():
    # The opening fence (and its language) leads, the closing fence follows: a window
    # alone would read as prose, its `# comment` as a heading, and leave a fence open.
    setup = "".join(f"pip install package-{n}\n" for n in range(60))
    text = (
        "# Install\n\nRun these:\n\n```bash\n"
        + setup
        + "# Then configure the widget retries\nwidget config --retries 5 --backoff 2\n"
        + setup
        + "```\n\nDone.\n"
    )
    cut = snippet(text, "docs/install.md", "configure widget retries backoff", max_chars=600)
    shown = cut.text.splitlines()
    assert shown[0] == "# Install", cut.text
    assert "```bash" in shown
    assert shown.index("```bash") < shown.index("# Then configure the widget retries")
    assert shown[-1] == "```", cut.text
    assert sum(line.startswith("```") for line in shown) == 2


def test_a_passage_running_past_the_fenced_block_it_starts_in_keeps_what_follows():
    # pino's api.md for "tag message text child": a passage from the last lines of one
    # example into the paragraph below it had no room for the block's opening fence, and
    # was cut to the two comment lines inside the block; the paragraph that answers went.
    first = [
        "```js", "const extra = { appName: 'My app' }", "",
        "const logger = pino({ mixin () { return extra } })", "",
        *(
            f"logger.info('Message {n}')\n// {{\"level\":30,\"msg\":\"Message {n}\"}}"
            for n in range(6)
        ),
        "// Note: the second message holds the text even so.", "```",
    ]  # fmt: skip
    second = [
        "```js", "logger.tags = {}", "logger.addTag = function (key, value) {",
        "  logger.tags[key] = value", "}", "", "function createChild (parent, ...context) {",
        "  const newChild = logger.child(...context)", "  newChild.tags = { ...logger.tags }",
        "  return newChild", "}", "```",
    ]  # fmt: skip
    answer = "To tag the text of every message of a child, keep the tags on the logger:"
    text = (
        "## mixin\n\nA function returning an object to merge into each line.\n\n"
        + "\n".join(first)
        + f"\n\nIf the mixin only adds the same fields, use a child logger instead. {answer}"
        + "\n\n"
        + "\n".join(second)
        + "\n"
    )
    for cap in range(500, 900, 100):
        cut = snippet(text, "docs/api.md", "tag message text child", cap, 300)
        assert answer in cut.text, (cap, cut.text)
        assert_fences_read_as_written(cut.text, cap)


def test_a_code_example_is_served_with_the_paragraph_announcing_it():
    # Starlette's routing.md for "custom path convertor": the DateTimeConvertor example
    # was served under the section's opening lines, without "If you need a different
    # converter that is not defined, you can create your own. See below an example...:".
    listing = "".join(f"* `kind{n}` returns a Python value of kind {n}.\n" for n in range(12))
    announcement = (
        "If you need a different converter that is not defined, you can create your own.\n"
        "See below an example on how to create a `datetime` convertor, and how to register it:"
    )
    text = (
        "## Path Parameters\n\nPaths can use URI templating style to capture path parts.\n\n"
        "You can use convertors to modify what is captured. The available convertors are:\n\n"
        + listing
        + f"\n{announcement}\n\n```python\nfrom datetime import datetime\n\n\n"
        "class DateTimeConvertor(Convertor):\n    regex = '[0-9]{4}-[0-9]{2}-[0-9]{2}'\n\n"
        "    def convert(self, value: str) -> datetime:\n"
        "        return datetime.strptime(value, '%Y-%m-%d')\n\n"
        "    def to_string(self, value: datetime) -> str:\n"
        "        return value.strftime('%Y-%m-%d')\n\n"
        "register_url_convertor('datetime', DateTimeConvertor())\n```\n"
    )
    for cap in (900, 1200, 1500):
        cut = snippet(text, "docs/routing.md", "custom convertor", cap, 300)
        assert "class DateTimeConvertor(Convertor):" in cut.text, (cap, cut.text)
        assert announcement in cut.text, (cap, cut.text)


def test_a_passage_that_opens_a_fenced_block_and_fills_the_cap_still_closes_it():
    # chi's README: the `Router` interface block, opened by the passage and longer than
    # the cap, was served without its closing fence, and the next hit read as code.
    methods = "".join(
        f"\t// Verb{n} answers verb {n}.\n\tVerb{n}(pattern string)\n" for n in range(40)
    )
    text = (
        "# chi\n\n## Router interface\n\nThe Group, Route and Mount methods:\n\n```go\n"
        "type Router interface {\n"
        "\t// Group adds a new inline-Router.\n\tGroup(fn func(r Router)) Router\n"
        "\t// Route mounts a sub-Router.\n\tRoute(pattern string, fn func(r Router)) Router\n"
        "\t// Mount attaches another handler.\n\tMount(pattern string, h http.Handler)\n"
        + methods
        + "}\n```\n\nEach routing method accepts a pattern.\n"
    )
    cut = snippet(text, "README.md", "difference between Group, Route and Mount on a router")
    shown = cut.text.splitlines()
    assert "\tMount(pattern string, h http.Handler)" in shown
    assert shown[-1] == "```", cut.text
    assert len(cut.text) <= 400


def test_a_block_with_no_room_to_close_is_left_out_rather_than_left_open():
    # Textual's app guide: a passage ending two lines into a block whose lines hold the
    # query's words, the cap full. Its lines cannot make room for the closing fence.
    body = "".join(f"mount widget step {n} and then the next one\n" for n in range(8))
    text = (
        "# Mounting\n\nAwait mount before you query the widget.\n\n"
        + body
        + "\n```python\nfrom textual.widgets import Button\nawait self.mount(Button())\n"
        + "".join(f"line_{n} = {n}\n" for n in range(30))
        + "```\n"
    )
    cut = snippet(text, "docs/app.md", "await mount widget button", max_chars=480)
    fences = [line for line in cut.text.splitlines() if line.startswith("```")]
    assert len(fences) % 2 == 0, cut.text
    assert "Await mount before you query the widget." in cut.text


def test_a_second_passage_of_code_with_no_room_for_its_fences_is_left_out():
    # Starlette's background.md: a second passage inside the BackgroundTasks example,
    # with no room for its opening fence nor its closing one, was served as code read as
    # prose (and named the wrong heading).
    steps = "".join(f"    step_{n} = prepare({n})\n" for n in range(6))
    text = (
        "# Background\n\n### Background Task\n\n"
        "Send a welcome email after the response with a background task.\n\n"
        "```python\nasync def signup(request):\n"
        "    task = BackgroundTask(send_welcome_email, to_address=email)\n"
        "    return JSONResponse(message, background=task)\n```\n\n"
        + "".join(f"Filler line {n} says nothing much at all.\n" for n in range(6))
        + "\n### Background Tasks\n\nSeveral at once.\n\n"
        "```python\nfrom starlette.background import BackgroundTasks\n"
        + steps
        + "async def signup(request):\n"
        "    tasks.add_task(send_welcome_email, to_address=email)\n"
        "    tasks.add_task(send_admin_notification, username=username)\n" + steps + "```\n"
    )
    query = "send welcome email background task after response"
    cut = snippet(text, "docs/background.md", query, max_chars=800, max_line_chars=200)
    assert "BackgroundTask(send_welcome_email" in cut.text, cut.text
    for line in cut.text.splitlines():  # every line of code between its fences
        if line.startswith("    ") and "(" in line:
            above = cut.text[: cut.text.index(line)]
            assert above.count("```") % 2 == 1, cut.text


def test_a_fence_indented_in_an_admonition_or_a_tab_is_a_fence():
    # mkdocs admonitions and tabs (`=== "app.py"`) indent their code blocks four spaces:
    # a passage ending inside one closes it as it would a block at the margin.
    code = "".join(f"    step_{n} = build({n})\n" for n in range(40))
    text = (
        "# Building the widget\n\n!!! note\n\n    Make the widget in one go:\n\n"
        "    ```python\n    widget = make_widget()\n" + code + "    ```\n"
    )
    cut = snippet(text, "docs/widget.md", "make the widget", max_chars=300)
    shown = cut.text.splitlines()
    assert "    widget = make_widget()" in shown, cut.text
    assert shown[-1] == "    ```", cut.text


def test_no_marker_stands_for_blank_lines_alone():
    # Phoenix's routing guide: `## Forward`, then `[line 597 not shown]` for the blank line
    # between the heading and its paragraph.
    filler = "".join(f"Other words on line {n} of a paragraph about nothing.\n" for n in range(30))
    para = "The forward macro can be used to send all requests under a path to a plug. " * 3
    code = "```elixir\n" + "".join(f"  line {n}\n" for n in range(30)) + "```\n"
    text = "# Routing\n\n" + filler + "\n## Forward\n\n" + para + "\n\n" + code + "\n## Next\n"
    query = "send every request under jobs to a separate plug"
    cut = snippet(text, "docs/routing.md", query, max_chars=400, max_line_chars=500)
    assert cut.text.startswith("## Forward\n\nThe forward macro"), cut.text


RUBY_STYLE = (
    "module Sinatra\n"
    "  module Namespace\n"
    "    def redirect?\n      false\n    end\n\n"
    "    # A namespace's own redirect.\n"
    "    def redirect(uri)\n      super(prefixed(uri))\n    end\n"
    "  end\n\n"
    "  module Helpers\n"
    + "".join(f"    def helper{n}(value)\n      value + {n}\n    end\n\n" for n in range(12))
    + "    # Halt processing and redirect to the URI provided.\n"
    "    def redirect(uri, *args)\n      status 302\n      halt(*args)\n    end\n\n"
    "    def redirect?\n      status.between? 300, 399\n    end\n"
    "  end\n\n"
    "  class Base\n"
    + "".join(f"    def other{n}\n      {n}\n    end\n\n" for n in range(12))
    + "    # Sets an option to the given value.\n"
    "    def self.set(option, value = (not_set = true))\n      @option = value\n    end\n"
    "  end\nend\n"
)


@pytest.mark.parametrize(
    ("query", "start"),
    [
        # Ruby's instance-method notation; a `?` method is another name.
        ("Helpers#redirect", "    # Halt processing and redirect to the URI provided."),
        # (led by the module holding it, the line above: joined, no marker between)
        ("redirect", "module Sinatra\n  module Namespace\n    def redirect?"),
        # A `::` path to the holder.
        ("Sinatra::Base.set", "    # Sets an option to the given value."),
    ],
    ids=["hash", "plain", "double-colon"],
)
def test_a_ruby_method_is_shown_at_its_definition(query, start):
    cut = snippet(RUBY_STYLE, "lib/sinatra/base.rb", query, max_chars=200)
    assert led_by(cut.text)[1].startswith(start), cut.text


def test_a_function_word_of_a_few_word_query_is_a_term():
    # `before validator` and `after validator` are two lookups, `serialize as any` names
    # pydantic's "as Any"; in a question the same words are filler, and a framing word
    # (`definition`) is filler however short the query.
    assert keys("before validator") == ["valid", "befor"]
    assert "ani" in keys("serialize as any")
    assert keys("what runs before a validator in my model") == ["run", "valid", "model"]
    assert keys("FromRequestParts trait definition")[-1] != "definit"
    # isort's `from_first` setting, its heading "From First": `from` names it.
    assert keys("From First") == ["first", "from"]
    assert keys("how do I read settings from a file") == ["read", "setting", "file"]


def test_a_decorator_spread_over_lines_leads_into_its_definition():
    # Kotlin's `@Deprecated(...)` and pytest's `@pytest.mark.parametrize(...)` spread over
    # lines: a lookup shows them with the definition they mark.
    deprecated = (
        '    @Deprecated(\n        message = "replaced with parse(String)",\n'
        "        level = DeprecationLevel.ERROR,\n    )\n"
    )
    text = KOTLIN_STYLE.replace("    private fun parseTokens(", deprecated + "    fun parseTokens(")
    cut = snippet(text, "src/Parser.kt", "Parser.parseTokens", max_chars=400)
    # After its class's first line (the passage starts inside the class).
    assert "not shown]\n    @Deprecated(\n" in cut.text, cut.text


FMT_STYLE = (
    '#include "base.h"\n\nnamespace fmt {\n\n'
    + "".join(f"FMT_API void vprint{n}(string_view fmt, format_args args);\n" for n in range(12))
    + "\n/**\n * Formats `args` according to specifications in `fmt` and writes the output\n"
    " * to `stdout`.\n */\n"
    "template <typename... T>\n"
    "FMT_INLINE void print(format_string<T...> fmt, T&&... args) {\n"
    "  vargs<T...> va = {{args...}};\n  vprint(fmt.str, va);\n}\n\n"
    "/// Writes the output to the file `f`.\n"
    "template <typename S, typename... T,\n"
    "          FMT_ENABLE_IF(is_compiled_string<S>::value)>\n"
    "void print(std::FILE* f, const S& fmt, T&&... args) {\n"
    "  print(f, fmt, std::forward<T>(args)...);\n}\n\n}  // namespace fmt\n"
)


def test_a_cpp_template_header_leads_into_the_definition_it_templates():
    # fmt's `fmt::print` was served from `FMT_INLINE void print(`, without the
    # `template <typename... T>` line over it or the doc comment over that.
    cut = snippet(FMT_STYLE, "include/fmt/base.h", "fmt::print", max_chars=300)
    assert cut.text.startswith("/**\n * Formats `args`"), cut.text
    assert "template <typename... T>\nFMT_INLINE void print(" in cut.text
    # A header spread over lines, from its first.
    text = FMT_STYLE.replace("FMT_INLINE void print(", "FMT_INLINE void show(")
    cut = snippet(text, "include/fmt/base.h", "fmt::print", max_chars=300)
    assert cut.text.startswith("/// Writes the output to the file `f`.\ntemplate <typename S,"), (
        cut.text
    )


CSHARP_TESTS = (
    "namespace Polly.Core.Tests;\n\npublic class RetryTests\n{\n"
    + "".join(
        f"    [Fact]\n    public void Case{n}()\n    {{\n        Run({n});\n    }}\n\n"
        for n in range(20)
    )
    + "    [Theory]\n    [InlineData(\n        1,\n        2)]\n"
    "    public void Retry_Delay_Grows(int attempt, int expected)\n    {\n"
    "        var delay = RetryHelper.GetRetryDelay(attempt);\n"
    "        delay.Should().Be(expected);\n    }\n\n"
    "    [Fact]\n    public void MaxRetryAttempts_Zero_Throws()\n    {\n"
    "        var options = new RetryStrategyOptions { MaxRetryAttempts = 0 };\n"
    "        options.Invoking(o => Validate(o)).Should().Throw();\n    }\n}\n"
)


def test_a_csharp_attribute_leads_into_the_method_it_marks():
    # C#'s attributes mark a method as Java's annotations do (`[Fact]`, a test; an
    # `[InlineData(...)]` spread over lines, its cases): served with the method.
    cut = snippet(CSHARP_TESTS, "test/RetryTests.cs", "MaxRetryAttempts zero throws", 300)
    assert "    [Fact]\n    public void MaxRetryAttempts_Zero_Throws()" in cut.text, cut.text
    cut = snippet(CSHARP_TESTS, "test/RetryTests.cs", "retry delay grows", 300)
    assert "    [Theory]\n    [InlineData(\n        1,\n" in cut.text, cut.text


def test_a_name_alone_is_shown_at_its_definition_outside_any_class():
    # attrs' `evolve`: the module's function (its docstring long), not the method of the
    # same name further down, whose comment and docstring say `evolve` again.
    # `Attribute.evolve` is the method.
    docstring = "".join(
        f"    Line {n} of what the function does with *changes*.\n" for n in range(30)
    )
    text = (
        "def evolve(*args, **changes):\n"
        '    """\n    Create a new instance, based on the first positional argument.\n\n'
        f'{docstring}    """\n'
        "    try:\n        (inst,) = args\n    except ValueError:\n"
        '        msg = f"evolve() takes 1 positional argument"\n'
        "        raise TypeError(msg) from None\n"
        "    return inst\n\n\n"
        + "".join(f"def helper{n}():\n    return {n}\n\n\n" for n in range(12))
        + "class Attribute:\n"
        "    # Don't use attrs.evolve since fields(Attribute) doesn't work\n"
        "    def evolve(self, **changes):\n"
        '        """\n        Copy *self* and apply *changes*.\n\n'
        "        This works similarly to `attrs.evolve` but that function does not work\n"
        '        with `attrs.Attribute`.\n        """\n'
        "        return self\n"
    )
    cut = snippet(text, "src/attr/_make.py", "evolve", max_chars=1500)
    assert cut.text.startswith("def evolve(*args, **changes):")
    cut = snippet(text, "src/attr/_make.py", "Attribute.evolve", max_chars=400)
    assert "    def evolve(self, **changes):" in cut.text


JAVA_PARSER = (
    "/**\n * A parser to parse JSON into a parse tree of JsonElements.\n"
    + "".join(f" * Line {n} about the JsonParser and how to parse with it.\n" for n in range(25))
    + " */\npublic final class JsonParser {\n"
    + "".join(f"  private static int helper{n}() {{\n    return {n};\n  }}\n\n" for n in range(12))
    + "  /**\n   * Parses the specified JSON string into a parse tree.\n   */\n"
    "  public static JsonElement parseString(String json) throws JsonSyntaxException {\n"
    "    return parseReader(new StringReader(json));\n  }\n}\n"
)


@pytest.mark.parametrize("query", ["JsonParser parseString", "JsonParser.parseString"])
def test_a_class_and_its_member_named_show_the_member(query):
    # Gson's `JsonParser parseString`, two names without a dot: the member of the class
    # also named, as the dotted form shows it, not the class's first lines.
    cut = snippet(JAVA_PARSER, "gson/JsonParser.java", query, max_chars=400)
    assert "public static JsonElement parseString(String json)" in cut.text, cut.text


def test_a_member_defined_in_several_classes_is_shown_from_the_class_named():
    # Celery's schedules.py defines `remaining_estimate` in `crontab` and in `solar`:
    # "crontab remaining estimate" served solar's, whose docstring held more of the
    # query's other words, the class named weighing nothing once its member was found.
    text = (
        "class crontab(BaseSchedule):\n"
        '    """Crontab schedule."""\n\n'
        "    def remaining_estimate(\n"
        "            self, last_run_at: datetime, ffwd: type = ffwd) -> timedelta:\n"
        '        """Estimate of next run time."""\n'
        "        return remaining(*self.remaining_delta(last_run_at, ffwd=ffwd))\n\n\n"
        + "".join(f"def helper{n}():\n    return {n}\n\n\n" for n in range(20))
        + "class solar(BaseSchedule):\n"
        '    """Solar event."""\n\n'
        "    def remaining_estimate(self, last_run_at: datetime) -> timedelta:\n"
        '        """Return estimate of next time to run: the estimate of when the\n'
        "        periodic task should run next, or the time of the next check.\n"
        '        """\n'
        "        return self.cal.next_event(last_run_at) - self.now()\n"
    )
    cut = snippet(text, "celery/schedules.py", "crontab remaining estimate", max_chars=400)
    assert "ffwd: type = ffwd" in cut.text, cut.text
    cut = snippet(text, "celery/schedules.py", "solar remaining estimate", max_chars=400)
    assert "self.cal.next_event" in cut.text, cut.text


KOTLIN_DELAY = (
    "".join(f"internal fun helper{n}(value: Long): Long = value + {n}\n\n" for n in range(10))
    + "/**\n * Delays coroutine for at least the given time without blocking a thread.\n */\n"
    "public suspend fun delay(timeMillis: Long) {\n"
    "    if (timeMillis <= 0) return\n"
    "    return suspendCancellableCoroutine { cont ->\n"
    "        cont.context.delay.scheduleResumeAfterDelay(timeMillis, cont)\n"
    "    }\n}\n\n"
    + "".join(f"internal fun other{n}(value: Long): Long = value * {n}\n\n" for n in range(10))
    + "/**\n * Delays coroutine for at least the given [duration] without blocking a thread.\n"
    " * This delay overload calls delay with the duration converted to milliseconds.\n */\n"
    "public suspend fun delay(duration: Duration): Unit = delay(duration.toDelayMillis())\n"
)


def test_of_two_overloads_the_one_that_passes_its_call_on_is_not_shown_first():
    # kotlinx.coroutines' `delay(Duration)` only calls `delay(Long)`: its line says the
    # name twice, and it won the snippet from the one that does the work.
    cut = snippet(KOTLIN_DELAY, "common/src/Delay.kt", "delay", max_chars=400)
    assert "scheduleResumeAfterDelay" in cut.text, cut.text


ELIXIR_NAMING = (
    "defmodule Phoenix.Naming do\n"
    '  @moduledoc """\n  Conveniences for inflecting and working with names in Phoenix.\n  """\n\n'
    + "".join(
        f'  @doc """\n  Helper {n}.\n  """\n  def helper{n}(value), do: value + {n}\n\n'
        for n in range(15)
    )
    + '  @doc """\n  Converts an attribute/form field into its humanize version.\n\n'
    "  ## Examples\n\n"
    '      iex> Phoenix.Naming.humanize(:username)\n      "Username"\n\n'
    '  """\n'
    "  @spec humanize(atom | String.t()) :: String.t()\n"
    "  def humanize(atom) when is_atom(atom),\n    do: humanize(Atom.to_string(atom))\n\n"
    "  def humanize(bin) when is_binary(bin) do\n"
    '    bin |> String.replace("_", " ") |> String.capitalize()\n  end\n'
    + "".join(f"\n  defp other{n}(value), do: value * {n}\n" for n in range(15))
    + "end\n"
)


@pytest.mark.parametrize("query", ["humanize", "Phoenix.Naming.humanize"])
def test_an_elixir_functions_doc_and_spec_lead_into_it(query):
    # `@doc """ ... """` and `@spec` above a `def` are its doc comment, as `/** */` is.
    cut = snippet(ELIXIR_NAMING, "lib/phoenix/naming.ex", query, max_chars=500)
    lead, passage = led_by(cut.text)
    assert lead == ["defmodule Phoenix.Naming do"], cut.text
    assert passage.startswith('  @doc """\n  Converts an attribute/form field'), cut.text
    assert "  def humanize(atom) when is_atom(atom)," in cut.text


ELIXIR_CONTROLLER = (
    "defmodule Phoenix.Controller do\n"
    + "".join(f"  def helper{n}(conn), do: conn.assigns.value{n}\n\n" for n in range(20))
    + '  @doc """\n  Sends JSON response.\n\n'
    "  It uses the configured `:json_library` to pick up the encoder module.\n"
    '  """\n'
    "  @spec json(Plug.Conn.t(), term) :: Plug.Conn.t()\n"
    "  def json(conn, data) do\n"
    "    response = Phoenix.json_library().encode_to_iodata!(data)\n"
    '    send_resp(conn, conn.status || 200, "application/json", response)\n  end\n\n'
    '  @doc """\n  A plug that may convert a JSON response into a JSONP one.\n\n'
    "  In case there is no callback or the response body is not encoded\n"
    "  in JSON format, it is a no-op: the controller sends it as it is.\n"
    '  """\n'
    "  def allow_jsonp(conn, opts \\\\ []) do\n"
    + "".join(f"    step{n} = callback(conn, opts, {n})\n" for n in range(4))
    + "    jsonp_body(conn.resp_body, step3)\n  end\nend\n"
)


def test_a_member_looked_up_is_served_at_its_definition_before_a_block_holding_as_much():
    # Phoenix's `Controller.json`: the next function's doc says "JSON", "response",
    # "encoded" and "body" too. Only a window of the module starts at the definition.
    query = "how does Controller.json encode the response body"
    cut = snippet(ELIXIR_CONTROLLER, "lib/phoenix/controller.ex", query, max_chars=600)
    assert "  def json(conn, data) do" in cut.text, cut.text


def test_a_second_passage_of_one_line_longer_than_the_room_left_is_not_served():
    # vite's plugin-legacy README: a 1,223-character first passage and a second of one
    # 364-character line made a snippet of 1,611 characters, over the 1,500 cap.
    intro = "".join(
        f"- Legacy browsers item {n}: support for old browsers in the production build.\n"
        for n in range(12)
    )
    long_line = "The legacy plugin " + "supports old browsers in a production build " * 8
    filler = "".join(f"## Setting {n}\n\nUnrelated filler {n}.\n\n" for n in range(30))
    text = f"# Legacy\n\n{intro}\n{filler}## Drawbacks\n\n{long_line}\n"
    cut = snippet(
        text, "README.md", "legacy browsers production build", max_chars=1300, max_line_chars=500
    )
    assert "Legacy browsers item 0" in cut.text
    assert len(cut.text) <= 1300


def test_a_padded_markdown_table_is_served_without_its_padding():
    # vite's CLI reference: prettier pads each cell to its column's widest, rows of 213
    # characters, three quarters spaces; the rows are served line for line, without it.
    rows = "".join(
        f"| `--option-{n}` {' ' * 20}| Port number to use for the dev server {n} {' ' * 90}|\n"
        for n in range(12)
    )
    text = (
        f"# CLI\n\n## Dev server\n\n| Options {' ' * 20}| {' ' * 120}|\n"
        f"| {'-' * 28} | {'-' * 120} |\n{rows}\n```text\n|  kept   as   is  |\n```\n"
    )
    cut = snippet(text, "docs/cli.md", "dev server port", max_chars=1500, max_line_chars=500)
    lines = cut.text.split("\n")
    assert "| `--option-0` | Port number to use for the dev server 0 |" in lines
    assert "| --- | --- |" in lines
    assert "|  kept   as   is  |" in lines  # a code block is served as written
    assert (cut.line_start, cut.line_end) == (1, 22)  # the whole file, at 22 lines


def test_compact_tables_keeps_each_line_and_what_is_not_a_table_row():
    from tierscope.ranking.table_rows import compact_tables

    lines = ["Two  spaces  in prose.", "|  a  |   b |", "    | x  |  y |", "```", "| c   |", "```"]
    assert compact_tables(lines) == [
        "Two  spaces  in prose.", "| a | b |", "    | x | y |", "```", "| c   |", "```",
    ]  # fmt: skip


CLICK_COMPLETION = (
    "# Shell Completion\n\n## Enabling Completion\n\n"
    + "To enable shell completion, the user registers a special function with the shell.\n" * 6
    + "The exact script varies depending on the shell you are using.\n\n"
    "```{eval-rst}\n.. tabs::\n\n    .. group-tab:: Bash\n\n"
    "        Add this to ``~/.bashrc``:\n\n"
    '            eval "$(_FOO_BAR_COMPLETE=bash_source foo-bar)"\n\n'
    "    .. group-tab:: Zsh\n\n        Add this to ``~/.zshrc``:\n\n"
    '            eval "$(_FOO_BAR_COMPLETE=zsh_source foo-bar)"\n\n'
    "    .. group-tab:: Fish\n\n"
    "        Add this to ``~/.config/fish/completions/foo-bar.fish``:\n\n"
    + "            _FOO_BAR_COMPLETE=fish_source foo-bar | source\n" * 12
    + "```\n\n## Custom Type Completion\n\nOther text.\n"
)


def test_an_answer_in_a_fenced_block_too_long_to_close_is_served_its_end_cut():
    # click's shell completion page: the passage ended inside an `{eval-rst}` block whose
    # closing fence did not fit, and was cut back to before the block, the Zsh line with
    # it: a term on the block's last line shown (`completions`) kept it from being shortened.
    cut = snippet(
        CLICK_COMPLETION, "docs/shell-completion.md", "zsh completion script", max_chars=1000,
        max_line_chars=200,
    )  # fmt: skip
    assert 'eval "$(_FOO_BAR_COMPLETE=zsh_source foo-bar)"' in cut.text
    assert cut.text.rstrip().endswith("```")  # the block is closed
    assert len(cut.text) <= 1000


# Textual's walk.py: "walk depth first" is answered by walk_depth_first's definition, not by
# a helper that walks depth first through it, its words closer together.
WALKS = '''def walk_depth_first(root):
    """Yield each node of the tree before its children.
    root: the node to start from, yielded before any other node under it.
    Returns an iterable of the nodes under root, root included, in order.
    """

    stack = [iter([root])]
    while stack:
        node = next(stack[-1], None)
        if node is None:
            stack.pop()
        else:
            yield node
            stack.append(iter(node.children))


def selected(root, region):
    # A walk of the selection, depth first.
    return [node for node in walk_depth_first(root) if node.region in region]
'''


def test_a_code_snippet_prefers_the_block_titled_for_the_query():
    found = snippet(WALKS, "walk.py", "walk depth first", max_chars=300)
    assert found.text.startswith("def walk_depth_first(root):\n")
    # The words spell its name run together: the definition looked up, served from its
    # line on to the cap, its body's first lines after its docstring.
    assert found.line_start == 1 and "    stack = [iter([root])]" in found.text
    # A question whose words spell it with another between looks it up too (it was served
    # as its head alone, lines 1-5, before such a name counted).
    found = snippet(WALKS, "walk.py", "walk the tree depth first", max_chars=300)
    assert found.line_start == 1 and "    stack = [iter([root])]" in found.text
    # One whose words spell no name: the block titled for it, its head answering.
    found = snippet(WALKS, "walk.py", "walk the tree", max_chars=300)
    assert (found.line_start, found.line_end) == (1, 5)


# Textual's App: "how long does a notification stay on screen by default" is answered by
# the attribute NOTIFICATION_TIMEOUT's docstring, not by a method about notifications.
NOTIFYING_APP = (
    "class App:\n"
    + "".join(f'    SETTING_{n}: int = {n}\n    """Setting number {n}."""\n\n' for n in range(12))
    + "    NOTIFICATION_TIMEOUT: ClassVar[float] = 5\n"
    '    """Default number of seconds to show notifications before removing them."""\n\n'
    + "".join(f"    def helper_{n}(self):\n        return {n}\n\n" for n in range(12))
    + "    def _refresh(self) -> None:\n"
    '        """Show the toasts again."""\n'
    "        rack = self.screen.get_child_by_type(ToastRack)\n"
    "        self.call_later(rack.show, self._notifications)\n"
)


def test_a_code_snippet_shows_an_attribute_titled_for_the_question():
    query = "how long does a notification stay on screen by default before it goes away"
    found = snippet(NOTIFYING_APP, "src/textual/app.py", query, max_chars=400)
    assert "Default number of seconds to show notifications" in found.text, found.text


# ripgrep's FAQ.md: one question per `<h3>` section; a short answer was served with the
# next question and the start of its answer, to fill the room under the cap.
RIPGREP_FAQ = (
    "## FAQ\n\n"
    + "".join(
        f'<h3 name="q{n}">\nHow do I use option {n}?\n</h3>\n\nOption {n} is set with `-{n}`.\n\n'
        for n in range(40)
    )
    + '<h3 name="compressed">\nHow do I search compressed files?\n</h3>\n\n'
    "ripgrep's `-z/--search-zip` flag will cause it to search compressed files\n"
    "automatically. Currently, this supports gzip, bzip2, xz, lzma, lz4, Brotli and Zstd.\n\n"
    '<h3 name="multiline">\nHow do I search over multiple lines?\n</h3>\n\n'
    "The `-U/--multiline` flag enables ripgrep to report results that span over\n"
    "multiple lines.\n\n"
    "#### Multiline and files\n\nSearching files over multiple lines reads them whole.\n"
)


def test_a_snippet_does_not_run_on_into_the_next_section_as_deep():
    found = snippet(RIPGREP_FAQ, "FAQ.md", "search inside compressed gzip files", 1500)
    assert found.text.startswith('<h3 name="compressed">'), found.text
    assert "Zstd." in found.text
    assert "multiple lines" not in found.text, found.text


# An FAQ of `###` questions under one `##` small enough to fit the cap: the question asked
# was served with the whole FAQ, five other questions around it.
SMALL_FAQ = (
    "# Widget\n\n## FAQ\n\n"
    "### Why is it called Widget?\n\nBecause it was the first name nobody objected to.\n\n"
    "### Can several instances be used?\n\nYes. Each instance has its own registry.\n\n"
    "### Are keys case sensitive?\n\nNo. Every key is lower-cased when it is stored.\n\n"
    "### Is an instance safe to share?\n\nNo, guard it with a mutex of your own.\n\n"
    "## License\n\nMIT.\n"
)


def test_a_section_is_not_widened_to_its_parent_for_siblings_that_hold_no_more():
    found = snippet(SMALL_FAQ, "FAQ.md", "are keys case sensitive", 1500)
    assert found.text.startswith("### Are keys case sensitive?"), found.text
    assert "lower-cased" in found.text
    assert "first name" not in found.text and "mutex" not in found.text, found.text


def test_a_section_is_widened_to_its_parent_where_that_holds_more_of_the_query():
    text = (
        "# Widget\n\n## Install\n\nWidget installs with one command on every system.\n\n"
        "### Linux\n\nRun `apt install widget` as root; the package is signed.\n\n"
        "### Windows\n\nRun the installer; the signed package needs no admin rights.\n\n"
        "## License\n\nMIT.\n"
    )
    found = snippet(
        text, "README.md", "install the signed package as root on linux or windows", 1500
    )
    assert "### Linux" in found.text and "### Windows" in found.text, found.text


# cobra's completions.go: `ShellCompRequestCmd` is defined in a `const (` block; the block of
# `initCompleteCmd`, titled with parts of the name (`Complete`, `Cmd`), was served instead.
COBRA_COMPLETIONS = (
    "package cobra\n\nconst (\n"
    "\t// ShellCompRequestCmd is the name of the hidden command that is used to request\n"
    "\t// completion results from the program.\n"
    '\tShellCompRequestCmd = "__complete"\n'
    '\tShellCompNoDescRequestCmd = "__completeNoDesc"\n)\n\n'
    + "".join(f"func helper{n}() int {{\n\treturn {n}\n}}\n\n" for n in range(10))
    + "// initCompleteCmd adds a special hidden command to request shell completion.\n"
    "func (c *Command) initCompleteCmd(args []string) {\n"
    "\tcompleteCmd := &Command{\n"
    '\t\tUse: fmt.Sprintf("%s [command-line]", ShellCompRequestCmd),\n'
    "\t\tHidden: true,\n\t}\n\tc.AddCommand(completeCmd)\n}\n"
)


def test_a_name_looked_up_is_not_answered_by_a_block_titled_with_its_parts():
    found = snippet(COBRA_COMPLETIONS, "completions.go", "ShellCompRequestCmd", max_chars=300)
    assert 'ShellCompRequestCmd = "__complete"' in found.text, found.text


def test_a_passage_spanning_two_sections_grows_within_the_second_not_into_a_third():
    from tierscope.ranking.span_choice import SpanChooser

    lines = [
        "## Compressed files", "", "Use -z to search gzip files.", "",
        "## Multiline", "", "Use -U to match over lines.", "", "It reads files whole.", "",
        "## Colors", "", "Use --color to set colors.",
    ]  # fmt: skip
    chooser = SpanChooser(
        lines, {3: {"gzip": 1}}, {"gzip": 1.0}, max_chars=400, max_line_chars=120,
        headings={0: 0, 4: 4, 10: 10},
    )  # fmt: skip
    chooser.levels = {0: 2, 4: 2, 10: 2}
    assert chooser.widen(Span(0, 4), []) == Span(0, 4)  # not on into the next section
    # A window already reaching into the next section may take the rest of it, not a third.
    assert chooser.widen(Span(0, 7), []) == Span(0, 9)


# pandoc's Markdown reader: a Haskell definition is its type signature (here over two lines)
# and the equation under it; the snippet showed the comment and the signature alone.
HASKELL_READER = (
    "module Readers.Markdown where\n\n"
    + "".join(f"helper{n} :: Int -> Int\nhelper{n} x =\n  x + {n}\n\n" for n in range(10))
    + "-- | Parse a pipe table: a header row, a separator row, then rows.\n"
    "pipeTable :: PandocMonad m\n          => MarkdownParser m (F Blocks)\n"
    "pipeTable = try $ do\n  header <- pipeTableRow\n  rows <- many pipeTableRow\n"
    "  return (table header rows)\n\n"
    + "".join(f"other{n} :: Int -> Int\nother{n} x =\n  x * {n}\n\n" for n in range(10))
)


def test_a_haskell_definition_is_served_with_its_signature_and_equation():
    found = snippet(HASKELL_READER, "src/Readers/Markdown.hs", "how is a pipe table parsed", 400)
    assert found.text.startswith("-- | Parse a pipe table:"), found.text
    assert "pipeTable :: PandocMonad m\n" in found.text
    assert found.text.endswith("  return (table header rows)"), found.text


def test_a_page_says_it_moved_however_its_words_are_spaced_or_cased():
    from tierscope.ranking.stand_in_pages import says_it_moved

    assert says_it_moved(["The first edition of the book is no  longer distributed."])
    assert says_it_moved(["# Install", "", "This Page Has\tMoved to the guide."])
    assert says_it_moved(["There is a new edition of the book and this is an old link."])
    assert not says_it_moved(["# Install", "", "Run the installer; nothing moved here."])
    # Past its opening lines, a long page's mention is no redirect.
    long_page = ["# Guide", *(f"Step {n}." for n in range(60)), "This page has moved on."]
    assert not says_it_moved(long_page)


def test_a_behaviours_documented_callback_is_served_not_the_stub_its_macro_injects():
    # Elixir's GenServer documents `@callback terminate`; its `__using__` injects a
    # `@doc false` `def terminate` inside `quote`, which was served for the callback.
    helpers = "".join(
        f'  @doc "Helper {n} formats a value for display."\n'
        f"  def other_{n}(value), do: inspect(value)\n\n"
        for n in range(8)
    )
    text = (
        'defmodule MyServer do\n  @doc """\n  Invoked when the server is about to exit.\n'
        '  `terminate/2` is not called when the server is killed.\n  """\n'
        "  @callback terminate(reason :: term, state :: term) :: term\n\n"
        + helpers
        + "  defmacro __using__(_opts) do\n    quote do\n      @behaviour MyServer\n\n"
        "      @doc false\n      def terminate(_reason, _state) do\n        :ok\n      end\n\n"
        "      defoverridable terminate: 2\n    end\n  end\nend\n"
    )
    cut = snippet(text, "lib/my_server.ex", "MyServer.terminate", max_chars=600)
    assert "@callback terminate(reason :: term, state :: term) :: term" in cut.text, cut.text
    assert "def terminate(_reason, _state)" not in cut.text, cut.text


def test_a_posts_title_is_its_first_heading_else_its_front_matter_title():
    heading = [
        "---",
        "title: Remote profiling",
        "date: 2024-01-05",
        "---",
        "",
        "# Remote profiling",
    ]
    assert title_line(heading) == 6
    assert title_line(["---", "title: Remote profiling", "---", "", "Text."]) == 2
    assert title_line(["Text.", "", "## A section"]) is None
    assert title_line(["```", "# a comment in code", "```"]) is None


REDIRECT_JS = """/**
 * Redirect a request. When called while a request is handled, Harbor returns a redirect response.
 * Make sure you are not catching the thrown redirect, which would keep Harbor from handling it.
 *
 * Most common status codes:
 *  * `303 See Other`: redirect as a GET request (often used after a form POST request)
 *  * `307 Temporary Redirect`: redirect will keep the request method
 *  * `308 Permanent Redirect`: redirect will keep the request method, and search engines move
 *
 * [See all redirect status codes](https://example.org/docs/http/status#redirection_messages)
 *
 * @param {300 | 301 | 302 | 303 | 304 | 305 | 306 | 307 | 308 | ({} & number)} status The [HTTP \
status code](https://example.org/status#redirection). Must be in the range 300-308.
 * @param {string | URL} location The location to redirect to.
 * @param {{ external?: boolean | string[] }} [options] To redirect to an external URL, pass \
`{ external: true }` to allow any external URL except `javascript:` URLs, or `{ external: [...] }`.
 * @throws {Redirect} This error tells Harbor to redirect to the given location.
 * @throws {Error} If the status given is invalid, or the location cannot be used as a header value.
 * @return {never}
 */
export function redirect(status, location, options) {
\tif (isNaN(status) || status < 300 || status > 308) {
\t\tthrow new Error('Invalid status code');
\t}
\tthrow new Redirect(status, location.toString());
}
"""


def test_a_doc_comment_that_fills_the_cap_is_not_served_without_its_definition():
    # SvelteKit's redirect(): its JSDoc was 1,447 characters, with its signature line 1,501,
    # one over the cap. The window at the comment's first line was served, ending on `*/`,
    # without the function and its range check, for "redirect status code range".
    comment = REDIRECT_JS[: REDIRECT_JS.index("export function")]
    cap = len(comment) + 20  # the comment fits; with its definition's line it does not
    cut = snippet(REDIRECT_JS, "redirect.js", "redirect status code range", cap, 1000)
    assert "export function redirect(status, location, options) {" in cut.text, cut.text
    assert len(cut.text) <= cap


def test_a_doc_comment_served_with_its_definition_keeps_the_lines_that_answer():
    # dplyr's count(): its roxygen block says at its top what the new column is called,
    # and runs on with examples; it is served from the answer, then its definition.
    examples = "".join(f"#' df |> count(group{n}, sort = TRUE)\n" for n in range(40))
    text = (
        "#' Count the observations in each group\n#'\n"
        "#' @param name The name of the new column in the output.\n"
        "#'   If omitted, it will default to `n`. If there's already a column called `n`,\n"
        "#'   it will use `nn`.\n#' @examples\n" + examples
        + "count <- function(x, ..., wt = NULL, sort = FALSE, name = NULL) {\n"
        "  UseMethod(\"count\")\n}\n"
    )  # fmt: skip
    cut = snippet(text, "count.R", "what does count call the new column named n", 700)
    shown = cut.text.splitlines()
    assert "If omitted, it will default to `n`. If there's already a column called `n`," in cut.text
    assert shown[-1] == "count <- function(x, ..., wt = NULL, sort = FALSE, name = NULL) {"
    assert left_out_lines(shown[-2]) is not None, cut.text
    assert len(cut.text) <= 700


def test_a_window_inside_a_section_is_led_by_its_heading_and_opening_paragraph():
    # Rails' Active Record callbacks guide: the window holding most of the question's words
    # was served under its heading, the paragraph opening the section (the answer: which
    # methods skip callbacks) left out.
    filler = "".join(f"Line {n} of an example that names nothing asked.\n" for n in range(40))
    text = (
        "# Callbacks\n\nIntro.\n\n## Skipping Callbacks\n\n"
        "Just as with validations, it is also possible to skip callbacks by using the\n"
        "following methods: `delete`, `update_column` and `insert_all`.\n\n"
        f"{filler}\n"
        "Skipping callbacks when saving or removing a record should be done with care,\n"
        "as callbacks hold important business rules of the record.\n\n## Other\n\nText.\n"
    )
    cut = snippet(text, "callbacks.md", "skip callbacks when saving or removing a record", 600)
    shown = [line for line in cut.text.splitlines() if line]
    assert shown[:3] == [
        "## Skipping Callbacks",
        "Just as with validations, it is also possible to skip callbacks by using the",
        "following methods: `delete`, `update_column` and `insert_all`.",
    ], cut.text
    assert left_out_lines(shown[3]) is not None, cut.text
    assert "as callbacks hold important business rules of the record." in cut.text
    assert len(cut.text) <= 600


def test_a_sections_opening_paragraph_holding_the_query_is_shown_before_its_examples_end():
    # Pinia's "Subscribing to actions" opens on what `$onAction`, `after` and `onError` do;
    # the passage chosen was the example below it, filling the cap, and was shown under
    # the heading alone, the opening paragraph left out.
    from tierscope.ranking.passage_ends import PassageEnds

    code = [f"  console.log('step {n}', name) // after step {n}" for n in range(30)]
    lines = [
        "# Actions", "", "## Subscribing to actions", "",
        "Observe actions with `store.$onAction()`: `after` runs a function after the action",
        "resolves, and `onError` runs one if the action throws or rejects. Both are useful",
        "for tracking errors at runtime, and for timing how long each action takes to run,",
        "or for logging which actions ran with which arguments, in what order and with what",
        "result, before and after each of them.", "",
        "Here is an example.", "", "```js", "store.$onAction(({ name, after, onError }) => {",
        *code, "})", "```", "", "## Other", "", "Text.",
    ]  # fmt: skip
    terms = ("onaction", "after", "onerror")
    matching = [n for n, line in enumerate(lines) if any(t in line.lower() for t in terms)]

    def size(span: Span) -> int:
        return sum(len(lines[n]) + 1 for n in range(span.start, span.end))

    def coverage(span: Span) -> float:
        text = "\n".join(lines[span.start : span.end]).lower()
        return float(sum(term in text for term in terms))

    ends = PassageEnds(lines, {0: 0, 2: 2}, "markdown", matching, levels={0: 1, 2: 2})
    ends.coverage = coverage
    example = Span(10, len(lines) - 4)  # "Here is an example." to the closing fence
    shown = ends.with_context([example], size(example) + 40, size)
    assert shown[0].start == 2 and shown[0].end >= 9, shown  # the heading and the paragraph
    assert sum(size(span) for span in shown) <= size(example) + 40
    assert any(span.start <= 13 < span.end for span in shown)  # the example's first line


def test_a_word_in_one_case_counts_for_the_querys_camel_case_word():
    matcher = TermMatcher(query_terms("TypeScript snippets"))
    # and for its parts, as the name written in the query's case does
    assert matcher.keys_of("typescript") == ["typescript", "type", "script"]
    assert matcher.keys_of("TypeScript") == ["type", "script", "typescript"]
    assert matcher.keys_of("type") == ["type"]
    # an option is found as written, with its hyphens
    assert TermMatcher(query_terms("--check-status")).keys_of("checkstatus") == []


def test_a_posts_title_may_be_hugos_toml_front_matter_title():
    assert title_line(["+++", 'title = "Remote profiling"', "date = 2024-01-05", "+++", ""]) == 2


def test_a_section_titled_with_the_name_asked_for_is_served_before_the_pages_intro():
    # httpx's environment_variables.md: "NO_PROXY environment variable" was served the
    # page's title and intro (which say "environment variables" throughout), cut off at
    # the `NO_PROXY` heading; the section titled with the name asked for is the answer.
    text = (
        "# Environment Variables\n\n"
        "The client can be configured via environment variables. Environment variables\n"
        "are read by default; to ignore environment variables, pass `trust_env=False`.\n\n"
        "Here is the list of environment variables the client reads and what each does.\n\n"
        "## Proxies\n\nThe proxy variables follow the convention of curl and wget.\n\n"
        "### `HTTP_PROXY`, `HTTPS_PROXY`\n\nValid values: the URL of a proxy.\n\n"
        "`HTTP_PROXY` and `HTTPS_PROXY` set the proxy used for http and https requests.\n\n"
        "### `NO_PROXY`\n\nValid values: a comma-separated list of host names.\n\n"
        "`NO_PROXY` disables the proxy for the hosts it lists, which are reached directly.\n\n"
        "## `SSL_CERT_FILE`\n\nValid values: a file name of CA certificates.\n"
    )
    cut = snippet(text, "docs/environment_variables.md", "NO_PROXY environment variable")
    assert "disables the proxy for the hosts it lists" in cut.text, cut.text


def test_a_heading_naming_a_member_with_its_holder_names_the_member():
    # Node's timers.md: `timersPromises.setTimeout(...)` is a section on setTimeout too;
    # the one also saying "timers" and "promises" answers "timers promises setTimeout".
    callbacks = "Schedules execution of a one-time callback after delay milliseconds.\n" * 3
    text = (
        "# Timers\n\n"
        f"### `setTimeout(callback[, delay[, ...args]])`\n\n{callbacks}\n"
        "## Timers Promises API\n\nThe promise versions of the timer functions.\n\n"
        "### `timersPromises.setTimeout([delay[, value[, options]]])`\n\n"
        "Resolves the promise after delay milliseconds with the value given.\n"
    )
    cut = snippet(text, "doc/api/timers.md", "timers promises setTimeout", max_chars=300)
    assert "Resolves the promise after delay" in cut.text, cut.text


def test_a_definition_named_with_the_querys_words_in_its_order_is_the_snippet():
    # Textual's walk.py: "walk widgets depth first" was served `walk_selectable_widgets`
    # (its docstring says "depth first"), not `walk_depth_first`; fzf's "awk style
    # tokenizer" the comments saying "AWK-style", not `func awkTokenizer`. The query's
    # words spell the name with another word between.
    body = "".join(f"        step_{n} = node.children[{n}]\n" for n in range(14))
    text = (
        "def walk_depth_first(root):\n"
        '    """Yield the nodes of a tree, parents before children."""\n'
        f"    stack = [root]\n    while stack:\n        node = stack.pop()\n{body}"
        "        yield node\n\n\n"
        "def walk_selectable_widgets(root, bounds):\n"
        '    """Walk the tree depth first in select order, widgets in the bounds."""\n'
        "    for widget in walk_depth_first(root):\n"
        "        if widget.region.overlaps(bounds):\n            yield widget\n"
    )
    cut = snippet(text, "src/walk.py", "walk widgets depth first", max_chars=700)
    assert cut.text.startswith("def walk_depth_first(root):"), cut.text
    # Its function words are no words the query leaves out: `redirect_back_or_to`.
    text = (
        "def redirect_back(fallback):\n    return redirect_back_or_to(fallback)\n\n\n"
        "def redirect_to(location):\n    response.location = location\n\n\n"
        "def redirect_back_or_to(fallback):\n"
        "    # The page that issued the request (the referrer), else the fallback.\n"
        "    target = request.referrer or fallback\n    return redirect_to(target)\n"
    )
    cut = snippet(text, "lib/redirecting.py", "redirect back referrer", max_chars=200)
    assert cut.text.startswith("def redirect_back_or_to(fallback):"), cut.text


def test_a_window_of_code_starts_where_the_call_it_would_start_inside_opens():
    # commander's command.js: a passage started at `previous,`, the fourth argument of
    # `this._callParseArg(`; the window from the call's first line fit the cap too, and
    # lost on density alone.
    steps = "".join(
        f"  const step{n} = normalise(input{n}, settings.width, settings.height);\n"
        for n in range(18)
    )
    text = (
        "export function render(settings, input0) {\n"
        "  const prepared = prepare(settings);\n"
        "  const layout = arrange(\n    prepared,\n    settings.columns,\n"
        "    settings.gutter,\n    settings.retryLimit,\n    settings.margin,\n  );\n"
        f"{steps}  const tail = finish(layout, 'xxxxxxxxxx');\n"
        "  // the budget is spent once per failed frame\n"
        "  spendBudget(layout);\n  return layout;\n}\n"
    )
    cut = snippet(text, "lib/render.js", "retry budget spent", max_chars=1500)
    assert not cut.text.startswith("    settings."), cut.text


def test_a_definition_looked_up_is_served_without_the_next_ones_doc_comment():
    # Got's is-unix-socket-url.ts: `isUnixSocketUrl` was served with the JSDoc of
    # `getUnixSocketPath` below it, written without leading stars and with blank lines,
    # ending on its `*/` and not its signature.
    text = (
        "export default function isUnixSocketUrl(url: URL) {\n"
        "\treturn url.protocol === 'unix:' || url.hostname === 'unix';\n}\n\n"
        "/**\nExtract the socket path from a UNIX socket URL.\n\n@example\n```\n"
        "getUnixSocketPath(new URL('http://unix/foo:/path'));\n//=> '/foo'\n\n"
        "getUnixSocketPath(new URL('http://example.com'));\n//=> undefined\n```\n*/\n"
        "export function getUnixSocketPath(url: URL): string | undefined {\n"
        "\tif (!isUnixSocketUrl(url)) {\n\t\treturn undefined;\n\t}\n\n"
        "\treturn /^(?<socketPath>[^:]+):/v.exec(url.pathname)?.groups?.socketPath;\n}\n"
    )
    cut = snippet(text, "source/is-unix-socket-url.ts", "isUnixSocketUrl", max_chars=400)
    assert cut.text.startswith("export default function isUnixSocketUrl(url: URL) {"), cut.text
    assert "Extract the socket path" not in cut.text, cut.text


def test_only_names_the_project_defines_make_the_files_holding_one_of_them_weigh_less():
    def held(names: str, defined: str = "") -> NamesHeld:
        return NamesHeld(frozenset(names.split()), frozenset(defined.split()))

    factory = {"factory.py": held("servererror clienterror")}
    classes = {"server.py": held("servererror", "servererror"), "client.py": held("clienterror")}
    assert apart({**factory, **classes}) == {"server.py", "client.py"}
    # Names the project does not define (Svelte's `TypeScript` and `JavaScript`) are words.
    assert (
        apart({**factory, "server.py": held("servererror"), "client.py": held("clienterror")})
        == set()
    )
    # Where only a test holds them all, nothing is weighed.
    assert apart({"tests/test_factory.py": held("servererror clienterror"), **classes}) == set()


def test_a_name_written_as_a_constant_is_read_where_it_is_written():
    # bat's app.rs for "NO_COLOR environment variable": the comments saying "environment
    # variables" were served, not `env::var_os("NO_COLOR")`, the one place it is read.
    paints = "".join(
        f"\nfn paint_{n}(colors: &Colors) -> Style {{\n    // pick the color for part {n}\n"
        f"    colors.color_{n}.bold()\n}}\n"
        for n in range(12)
    )
    text = (
        "use std::env;\n\npub fn env_no_color() -> bool {\n"
        '    env::var_os("NO_COLOR").is_some_and(|x| !x.is_empty())\n}\n'
        + paints
        + "\nimpl App {\n    pub fn new() -> Result<Self> {\n"
        "        // Check if the -n option was passed on the command line\n"
        "        // (before merging with config file and environment variables).\n"
        '        let number_from_cli = std::env::args().any(|arg| arg == "-n");\n'
        "        Ok(App { number_from_cli })\n    }\n}\n"
        "\npub fn color_choice(app: &App) -> bool {\n    !env_no_color() && app.output\n}\n"
    )
    cut = snippet(text, "src/app.rs", "NO_COLOR environment variable", 1500, 300)
    assert cut.text.startswith("pub fn env_no_color() -> bool {\n"), cut.text
    # Written in lower case, it is a name like any other.
    assert constant_names_weighed({"nocolor": 1.0}, query_terms("no_color variable")) == {
        "nocolor": 1.0
    }


def test_a_list_of_the_names_a_module_imports_is_imports_too():
    # The NestJS docs site's page stubs: imports, then an Angular `imports: [...]` list of
    # the same names, one per line; a stub ranked first for "links tab" above the link
    # renderer, while the same stub with its list on one line was marked imports only.
    head = (
        "import { Component } from '@angular/core';\n"
        "import { RouterLink } from '@angular/router';\n"
        "import { TabsComponent } from '../tabs/tabs.component';\n\n"
        "@Component({\n  selector: 'app-guards',\n  standalone: true,\n"
    )
    tail = "})\nexport class GuardsComponent {}\n"
    for listed in (
        "  imports: [RouterLink, TabsComponent],\n",
        "  imports: [\n    RouterLink,\n    TabsComponent,\n  ],\n",
    ):
        lines = (head + listed + tail).split("\n")
        held = {
            index + 1: {"link": 1, "tab": 1}
            for index, line in enumerate(lines)
            if "RouterLink" in line or "TabsComponent" in line
        }
        assert imports_only(lines, held), listed
    # Names the module defines or takes from elsewhere, listed so, are no imports.
    own = (
        head
        + "  imports: [\n    RouterLink,\n    LinkRenderer,\n    TabGroup,\n"
        + "    LinkList,\n    TabBar,\n  ],\n"
        + tail
    )
    lines = own.split("\n")
    held = {
        index + 1: {"link": 1, "tab": 1}
        for index, line in enumerate(lines)
        if "Link" in line or "Tab" in line
    }
    assert not imports_only(lines, held)


def test_the_lines_between_a_heading_and_the_passage_under_it_show_when_they_fit():
    # Textual's text_opacity.md: `# Text-opacity`, `[lines 2-4 not shown]`, then
    # `## Syntax`: the marker stood for the page's one-sentence definition, which fitted.
    text = (
        "# Text-opacity\n\n"
        "The `text-opacity` style blends the foreground color with the background color.\n\n"
        "## Syntax\n\n"
        "text-opacity: <number> | <percentage>;\n\n"
        "The text opacity of a widget can be set as a number or a percentage.\n"
        "If given as a number, 0 makes the foreground match the background and 1 shows text "
        "as normal.\n\n"
        "Setting `text-opacity` to `0.3` would result in very dim text.\n\n"
        "## Example\n\n"
        "This example shows increasing `text-opacity` values.\n\n"
        '```python\n--8<-- "docs/examples/styles/text_opacity.py"\n```\n\n'
        "## CSS\n\n```css\n/* Set the text to be half-faded against the background */\n"
        "text-opacity: 50%;\n```\n\n"
        "## Python\n\n```python\n# Set the text to be half-faded against the background\n"
        'widget.styles.text_opacity = "50%"\n```\n'
    )
    query = "dim only the text of a widget while keeping its background fully visible"
    cut = snippet(text, "docs/styles/text_opacity.md", query, max_chars=500, max_line_chars=500)
    assert "not shown" not in cut.text.split("## Syntax")[0], cut.text
    assert cut.text.startswith("# Text-opacity\n\nThe `text-opacity` style blends"), cut.text


EDITOR_STYLE = '''\
class Editor:
    def _watch_focus(self, focused: bool) -> None:
        if focused:
            self.history.checkpoint()
        else:
            self._pause_blink(visible=False)

    def _watch_selection(
        self, previous_selection: Selection, selection: Selection
    ) -> None:
        """When the cursor moves, scroll it into view."""
        if not self.is_mounted:
            return

        self.app.clear_selection()
        cursor_location = selection.end
        self.scroll_cursor_visible()
        cursor_row, cursor_column = cursor_location

        try:
            character = self.document[cursor_row][cursor_column]
        except IndexError:
            character = ""

        # Record the location of a matching closing/opening bracket.
        match_location = self.find_matching_bracket(character, cursor_location)
        self._matching_bracket_location = match_location
        if match_location is not None:
            _, offset_y = self._cursor_offset
            self.refresh_lines(offset_y)

        self.app.cursor_position = self.cursor_screen_offset
        if previous_selection != selection:
            self.post_message(self.SelectionChanged(selection, self))

    def _watch_cursor_blink(self, blink: bool) -> None:
        if not self.is_mounted:
            return None
        if blink and self.has_focus:
            self._restart_blink()
        else:
            self._pause_blink(visible=self.has_focus)

    def _watch_read_only(self, read_only: bool) -> None:
        self.set_class(read_only, "-read-only")
        self._set_theme(self._theme.name)

    def _recompute_cursor_offset(self):
        """Recompute the (x, y) coordinate of the cursor in the wrapped document."""
        self._cursor_offset = self.wrapped_document.location_to_offset(
            self.cursor_location
        )

    def find_matching_bracket(
        self, bracket: str, search_from: Location
    ) -> Location | None:
        """If the character is a bracket, find the matching bracket.

        Args:
            bracket: The character we're searching for the matching bracket of.
            search_from: The location to start the search.

        Returns:
            The `Location` of the matching bracket, or `None` if it's not found.
        """
        match_location = None
        bracket_stack: list[str] = []
        if bracket in _OPENING_BRACKETS:
            for candidate, candidate_location in self._character_locations(search_from):
                if candidate in _OPENING_BRACKETS:
                    bracket_stack.append(candidate)
                elif candidate in _CLOSING_BRACKETS:
                    if bracket_stack and bracket_stack[-1] == _CLOSING_BRACKETS[candidate]:
                        bracket_stack.pop()
                        if not bracket_stack:
                            match_location = candidate_location
                            break
        elif bracket in _CLOSING_BRACKETS:
            for candidate, candidate_location in self._character_locations_back(search_from):
                if candidate in _CLOSING_BRACKETS:
                    bracket_stack.append(candidate)
                elif candidate in _OPENING_BRACKETS:
                    if bracket_stack and bracket_stack[-1] == _OPENING_BRACKETS[candidate]:
                        bracket_stack.pop()
                        if not bracket_stack:
                            match_location = candidate_location
                            break
        return match_location
'''


def test_room_for_a_lead_is_not_made_by_cutting_a_definition_down_to_its_header():
    # Textual's _text_area.py: the call of find_matching_bracket and the definition below
    # were joined, the lead of the method calling it afforded by cutting the lines that
    # repeat the query's words; the passage ended on `def find_matching_bracket(` and half
    # its signature, its docstring (the answer) cut.
    query = "code that finds the matching bracket when the cursor sits on a parenthesis"
    cut = snippet(EDITOR_STYLE, "src/editor.py", query, max_chars=1500, max_line_chars=300)
    assert "If the character is a bracket, find the matching bracket." in cut.text, cut.text


HOOKS_RST = """\
Applying Post Processing and Code Formatters to Generated Revisions
--------------------------------------------------------------------

Revision scripts generated by the ``alembic revision`` command can optionally
be piped through a series of post-production functions which may analyze or
rewrite Python source code generated by Alembic.  The primary intended use of this
feature is to run code-formatting tools such as Black, as well as custom-written
formatting and linter functions, on revision files as Alembic generates them.
Any number of hooks can be configured and they will be run in series, given the
path to the newly generated file as well as configuration options.

The post write hooks, when configured,  run against generated revision files
regardless of whether or not the autogenerate feature was used.

.. note::

    Alembic's post write system is partially inspired by the pre-commit
    tool, which configures git hooks that reformat
    source files as they are committed to a git repository.  Pre-commit can
    serve this role for Alembic revision files as well, applying code
    formatters to them as they are committed.  Alembic's post write hooks are
    useful only in that they can format the files immediately upon generation,
    rather than at commit time, and also can be useful for projects that prefer
    not to use pre-commit.

Basic Post Processor Configuration
^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^

Example from an alembic.ini file::

    [post_write_hooks]
    hooks=black
    black.type = console_scripts
    black.options = -l 79 REVISION_SCRIPT_FILENAME
"""


def test_an_admonitions_body_is_prose_whose_sentences_a_passage_ends_on():
    # Alembic's autogenerate.rst: `.. note::` ends with `::` as a paragraph opening a
    # literal block does, so its body was read as code and the passage ended on "Alembic's
    # post write hooks are".
    cut = snippet(HOOKS_RST, "docs/hooks.rst", "post write hooks black formatter", max_chars=1200)
    prose = cut.text.split("[lines")[0].rstrip()
    assert prose.endswith((".", "::")), cut.text


def test_joining_fragments_never_cuts_one_short():
    # A fragment inside the one before it (a lead overlapping its passage) is joined into
    # it, not made its end.
    from tierscope.ranking.sections import _gaps_filled

    def size(span: Span) -> int:
        return 10 * (span.end - span.start)

    assert _gaps_filled([Span(0, 10), Span(2, 5)], 500, size) == [Span(0, 10)]
    assert _gaps_filled([Span(0, 3), Span(5, 8)], 500, size) == [Span(0, 8)]
    assert _gaps_filled([Span(0, 3), Span(30, 33)], 100, size) == [Span(0, 3), Span(30, 33)]


@pytest.mark.parametrize(
    ("page", "referral"),
    [
        # urfave/cli's `v2/migrating-to-v3.md`: its last line is the link to the answer.
        (
            "There are a few breaking changes in v3.\nSpecific steps are included in\n"
            "[Migration Guide: v2 to v3](../migrate-v2-to-v3.md).\n",
            True,
        ),
        ("# Moved\n\nSee [the guide](guide.md)\n", True),
        # sinon's `guides/how-to/index.md`: a list of links to the articles, each described.
        (
            "# How-to articles\n\nPractical guides.\n\n- [Stub a dependency](./stub-dependency)"
            " — Stub a dependency of a module\n- [TypeScript](./typescript-swc) — A case study\n",
            True,
        ),
        # Hugo's glossary: one paragraph linking the terms it uses inside its sentences
        # answers "what is a partial"; 103 of its 152 pages hold such links, and each was
        # demoted as a table of contents.
        (
            "---\ntitle: partial\n---\n\nA _partial_ is a [_template_](g) called from any"
            " other template. It can call itself, to [_walk_](g) a data structure.\n",
            False,
        ),
        ("A stub replaces a function [stubs](stubs.md) for its tests.\n", False),
    ],
)
def test_a_short_page_refers_elsewhere_when_it_ends_on_a_link(page, referral):
    assert refers_elsewhere(page.splitlines()) is referral
