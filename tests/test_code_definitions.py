"""Which lines of code define a name, and what holds each definition: the class, the
object or the module a member is defined in."""

from __future__ import annotations

import pytest
from snippet_cuts import snippet

from tierscope.ranking.analysis import query_terms
from tierscope.ranking.code_definitions import defined_as_spelt, holder_of
from tierscope.ranking.definition_forms import other_definition
from tierscope.ranking.matching import TermMatcher
from tierscope.ranking.spans import split_lines


def definitions(text: str, query: str) -> list[tuple[str, str]]:
    """Each definition on a line holding the query's terms: its name, and its holder's
    (name_key; "" for none)."""
    lines = split_lines(text)
    matcher = TermMatcher(query_terms(query))
    found = defined_as_spelt(lines, matcher.lines(text), matcher)
    return [(name, holder_of(lines, index)) for index, name in found]


@pytest.mark.parametrize(
    ("line", "name", "holder"),
    [
        ("res.redirect = function redirect(url) {", "redirect", "res"),
        ("res.cookie = function (name, value, options) {", "cookie", "res"),
        ("app.handle = async function handle(req, res) {", "handle", "app"),
        ("Router.prototype.route = function route(path) {", "route", "router"),
        ("app.response.shout = (text) => {", "shout", "response"),
        ("proto.param = name => name.toUpperCase()", "param", "proto"),
        ("exports.Parser = class extends Base {", "Parser", ""),
        # A module's own function: no holder, as a `function compile(` is.
        ("exports.compile = function(fn, options) {", "compile", ""),
        ("module.exports.compile = async (text) => {", "compile", ""),
    ],
)
def test_a_javascript_member_defined_by_assignment_is_a_definition(line, name, holder):
    assert definitions(line + "\n  return 1\n}\n", name) == [(name, holder)]


def test_a_member_assigned_inside_a_function_body_is_still_a_definition():
    # Express's `createApplication` and plugin factories add methods to what they build.
    text = (
        "function createApplication() {\n"
        "  var app = function(req, res, next) {\n    app.handle(req, res, next);\n  };\n"
        "  app.handle = function handle(req, res, next) {\n    next();\n  };\n"
        "  return app;\n}\n"
    )
    assert definitions(text, "handle") == [("handle", "app")]


@pytest.mark.parametrize(
    "line",
    [
        "res.locals = Object.create(null);",
        "app.cache = {};",
        "res.statusCode = 5;",
        "  res.statusCode = 302;",
        # An alias names a function written elsewhere; it is not where that is defined.
        "res.contentType = res.type;",
        "app.engine = functions.engine;",
        "if (res.redirect === function () {}) {",
    ],
)
def test_a_property_given_data_or_another_name_defines_nothing(line):
    name = line.split("=")[0].strip().split(".")[-1].split()[0].rstrip(")")
    assert definitions(line + "\n", name) == []


@pytest.mark.parametrize(
    "opener",
    ["var Router = class {", "export const Router = class extends Layer {"],
)
def test_the_methods_of_a_class_expression_are_its_members(opener):
    text = f"{opener}\n  route(path) {{\n    return path\n  }}\n}}\n"
    assert definitions(text, "route") == [("route", "router")]


PHP_ROUTE_PARSER = """\
<?php

namespace Slim\\Routing;

use FastRoute\\RouteParser\\Std;
use Slim\\Interfaces\\RouteParserInterface;

/**
 * Builds the URLs of named routes.
 */
final class RouteParser extends Parser implements RouteParserInterface
{
    private Std $routeParser;

    public function urlFor(string $routeName, array $data = []): string
    {
        return $this->basePath . $this->relativeUrlFor($routeName, $data);
    }
}
"""


def test_a_php_method_under_a_brace_on_its_own_line_is_a_member_of_its_class():
    # PSR-12 (and C#, Java in the Allman style) opens a class's body on the next line.
    assert definitions(PHP_ROUTE_PARSER, "urlFor") == [("urlFor", "routeparser")]


@pytest.mark.parametrize("opener", ["abstract class", "interface", "trait"])
def test_an_interface_or_a_trait_holds_its_methods(opener):
    text = (
        f"<?php\n\n{opener} RequestHandler\n{{\n"
        "    public function handle(ServerRequestInterface $request): ResponseInterface;\n}\n"
    )
    assert definitions(text, "handle") == [("handle", "requesthandler")]


ELIXIR_ROUTER = '''\
defmodule Phoenix.Router do
  @moduledoc """
  Defines a Phoenix router.
  """

  defmacro scope(path, options, do: context) do
    do_scope(path, options, context)
  end

  defmacrop add_route(kind, verb, path, plug) do
    quote do: @routes {unquote(kind), unquote(verb), unquote(path), unquote(plug)}
  end

  defp do_scope(path, options, context), do: {path, options, context}

  defdelegate route_info(router, method, path, host), to: Phoenix.Router.Helpers

  defguard is_route(term) when is_tuple(term)

  def valid?(router), do: is_atom(router)

  @doc "Invoked when the router is about to exit."
  @callback terminate(reason :: term, state :: term) :: term
  @macrocallback __routes__() :: Macro.t()
end

defprotocol Phoenix.Param do
  def to_param(term)
end

defimpl Phoenix.Param, for: Integer do
  def to_param(int), do: Integer.to_string(int)
end
'''


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("scope", [("scope", "router")]),
        ("add_route", [("add_route", "router")]),
        ("do_scope", [("do_scope", "router")]),
        ("route_info", [("route_info", "router")]),
        ("is_route", [("is_route", "router")]),
        # The module's last name is the one defined, in no module.
        ("Router", [("Router", "")]),
        ("Phoenix.Router", [("Router", "")]),
        # A protocol and its implementation each hold the function.
        ("to_param", [("to_param", "param"), ("to_param", "param")]),
        # `valid?` is another name than `valid`, as in Ruby.
        ("valid", []),
        # A behaviour's callback is declared with its documentation, and no body.
        ("terminate", [("terminate", "router")]),
        ("__routes__", [("__routes__", "router")]),
    ],
)
def test_elixir_functions_macros_and_modules_are_definitions(query, found):
    name = query.rsplit(".", 1)[-1]
    assert [item for item in definitions(ELIXIR_ROUTER, query) if item[0] == name] == found


KOTLIN_DISPATCHERS = """\
package kotlinx.coroutines

public actual object Dispatchers {
    public actual val Default: CoroutineDispatcher = DefaultScheduler

    /** It defaults to the limit of 64 threads. */
    @JvmStatic
    public val IO: CoroutineDispatcher get() = DefaultIoScheduler
}

public expect fun <T> runBlocking(context: CoroutineContext, block: suspend () -> T): T

public enum class CoroutineStart {
    DEFAULT,
}

public fun interface FlowCollector<in T> {
    public suspend fun emit(value: T)
}

public interface Channel<E> {
    public companion object Factory {
        public const val CONFLATED: Int = -1
    }
}

fun compute() {
    val result = 1
}
"""


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("Dispatchers", [("Dispatchers", "")]),
        ("Dispatchers.IO", [("IO", "dispatchers")]),
        ("runBlocking", [("runBlocking", "")]),
        ("CoroutineStart", [("CoroutineStart", "")]),
        ("FlowCollector", [("FlowCollector", "")]),
        ("CONFLATED", [("CONFLATED", "factory")]),
        # A local value is no definition: locals take no modifier.
        ("result", []),
    ],
)
def test_kotlin_objects_values_and_expected_declarations_are_definitions(query, found):
    name = query.rsplit(".", 1)[-1]
    assert [item for item in definitions(KOTLIN_DISPATCHERS, query) if item[0] == name] == found


JAVA_READER = """\
package com.google.gson.stream;

public class JsonReader implements Closeable {
  static final int DEFAULT_NESTING_LIMIT = 255;
  private static final long MIN_INCOMPLETE_INTEGER = Long.MIN_VALUE / 10;
}

public @interface SerializedName {
  String value();
}
"""


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("DEFAULT_NESTING_LIMIT", [("DEFAULT_NESTING_LIMIT", "jsonreader")]),
        ("MIN_INCOMPLETE_INTEGER", [("MIN_INCOMPLETE_INTEGER", "jsonreader")]),
        ("SerializedName", [("SerializedName", "")]),
    ],
)
def test_java_constants_and_annotation_types_are_definitions(query, found):
    assert [item for item in definitions(JAVA_READER, query) if item[0] == query] == found


@pytest.mark.parametrize(
    ("text", "query", "found"),
    [
        # Polly's HealthMetrics: an abstract method declares the contract its overrides
        # fulfil; it was told it "does not define" GetHealthInfo.
        (
            "internal abstract class HealthMetrics\n{\n"
            "    public abstract HealthInfo GetHealthInfo();\n}\n",
            "GetHealthInfo",
            [("HealthMetrics", ""), ("GetHealthInfo", "healthmetrics")],
        ),
        (
            "public abstract class Provider<TKey>\n{\n    public abstract bool TryGetPipeline(\n"
            "        TKey key, out ResiliencePipeline? pipeline);\n}\n",
            "TryGetPipeline",
            [("TryGetPipeline", "provider")],
        ),
        # A Java or C# interface's methods, declared without a body.
        (
            "public interface Codec {\n    Object decode(Reader reader) throws IOException;\n}\n",
            "decode",
            [("decode", "codec")],
        ),
        (
            "public interface IResilienceStrategy\n{\n"
            "    ValueTask<Outcome<T>> ExecuteCore<T>(Func<T> callback);\n}\n",
            "ExecuteCore",
            [("ExecuteCore", "iresiliencestrategy")],
        ),
    ],
)
def test_an_abstract_or_interface_method_without_a_body_is_a_definition(text, query, found):
    assert definitions(text, query) == found


def test_a_c_prototype_is_still_no_definition():
    # The definition is the function with a body, in the .c file.
    assert definitions("int jv_parse(const char *text);\n", "jv_parse") == []
    assert definitions("    result = compute(value);\n", "compute") == []


EMACS_LISP = """\
(defcustom magit-process-log-max 32
  "Maximum number of sections to keep in a process log buffer."
  :type 'integer)

(defvar-local magit-buffer-lock nil)

(defun magit-status (&optional directory cache)
  "Show the status of the current Git repository in a buffer."
  (interactive)
  (magit-status-setup-buffer directory))

(cl-defmethod magit-section-ident-value ((section magit-section))
  (oref section value))

(transient-define-prefix magit-commit ()
  "Create a new commit or replace an existing commit."
  [("c" "Commit" magit-commit-create)])

(defalias 'magit-diff-visit-file-other-window #'magit-diff-visit-file)

(defn parse-options [args] (first args))

(magit-status-setup-buffer default-directory)
"""


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("magit-process-log-max", [("magit-process-log-max", "")]),
        ("magit-buffer-lock", [("magit-buffer-lock", "")]),
        ("magit-status", [("magit-status", "")]),
        ("magit-section-ident-value", [("magit-section-ident-value", "")]),
        ("magit-commit", [("magit-commit", "")]),
        ("magit-diff-visit-file-other-window", [("magit-diff-visit-file-other-window", "")]),
        ("parse-options", [("parse-options", "")]),  # Clojure
        # A call defines nothing.
        ("magit-status-setup-buffer", []),
    ],
)
def test_lisp_definitions_name_what_they_define(query, found):
    # Magit's `magit-status` was looked up in every file calling it: no `(defun` was read
    # as a definition.
    assert [item for item in definitions(EMACS_LISP, query) if item[0] == query] == found


HASKELL = """\
module Text.Pandoc.Readers.Markdown
  ( readMarkdown
  , yamlToMeta
  ) where

-- | Read markdown from an input string and return a Pandoc document.
readMarkdown :: (PandocMonad m, ToSources a)
             => ReaderOptions -> a -> m Pandoc
readMarkdown opts s = do
  parsed <- readWithM parseMarkdown def s
  return parsed

data ParserState = ParserState
  { stateOptions :: ReaderOptions
  }

newtype Extensions = Extensions Integer

pipeTable, simpleTable :: PandocMonad m => MarkdownParser m Blocks
pipeTable = try $ do
  return mempty
"""


@pytest.mark.parametrize(
    ("query", "found"),
    [
        # Its type signature at the margin, not the module's export list nor its equation.
        ("readMarkdown", [("readMarkdown", "")]),
        ("ParserState", [("ParserState", "")]),
        ("Extensions", [("Extensions", "")]),
        ("pipeTable", [("pipeTable", "")]),
        # A record's field is indented: no definition of the module's.
        ("stateOptions", []),
    ],
)
def test_haskell_signatures_and_types_are_definitions(query, found):
    # pandoc's `readMarkdown` served the export list of Text.Pandoc.Readers first.
    assert [item for item in definitions(HASKELL, query) if item[0] == query] == found


R_CODE = """\
#' Group by one or more variables
#' @export
group_by <- function(.data, ..., .add = FALSE) {
  UseMethod("group_by")
}

arrange = function(.data, ...) {
  group_by(.data)
}

group_by_drop_default <<- function(.tbl) TRUE
"""


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("group_by", [("group_by", "")]),
        ("arrange", [("arrange", "")]),
        ("group_by_drop_default", [("group_by_drop_default", "")]),
    ],
)
def test_r_functions_assigned_to_a_name_are_definitions(query, found):
    # dplyr's `group_by` served `group_by_at`'s file first: `name <- function(` defined
    # nothing.
    assert [item for item in definitions(R_CODE, query) if item[0] == query] == found


JULIA = """\
mutable struct DataFrame <: AbstractDataFrame
    columns::Vector{AbstractVector}
end

abstract type AbstractDataFrame end

nrow(df::DataFrame) = ncol(df) > 0 ? length(_columns(df)[1])::Int : 0
Base.pop!(df::DataFrame) = popat!(df, nrow(df))
_names(r::DataFrameRow{T}) where {T} = view(r)

macro spawn_for_chunks(chunk_size, loop)
    return esc(loop)
end

function select(df::AbstractDataFrame, args...)
    nrow(df) == 0 && return df
end
"""


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("DataFrame", [("DataFrame", "")]),
        ("AbstractDataFrame", [("AbstractDataFrame", "")]),
        ("nrow", [("nrow", "")]),  # the short form; its calls define nothing
        ("pop!", [("pop!", "")]),
        ("_names", [("_names", "")]),
        ("spawn_for_chunks", [("spawn_for_chunks", "")]),
        ("select", [("select", "")]),
    ],
)
def test_julia_structs_short_functions_and_macros_are_definitions(query, found):
    # DataFrames.jl's `mutable struct DataFrame` and `nrow(df::DataFrame) = ...` defined
    # nothing: "nrow" served files calling it.
    name = query.rstrip("!")
    assert [item for item in definitions(JULIA, name) if item[0] == query] == found


OCAML = """\
let rec find_project_root dir =
  if Sys.file_exists (Filename.concat dir "dune-project") then dir
  else find_project_root (Filename.dirname dir)

and parent dir = Filename.dirname dir

type workspace = { root : string }

module Context = struct
  let create ~name = { root = name }
end

val load_workspace : string -> workspace

let () = find_project_root "." |> ignore
"""


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("find_project_root", [("find_project_root", "")]),
        ("parent", [("parent", "")]),
        ("workspace", [("workspace", "")]),
        ("Context", [("Context", "")]),
        ("load_workspace", [("load_workspace", "")]),
    ],
)
def test_ocaml_lets_types_modules_and_values_are_definitions(query, found):
    assert [item for item in definitions(OCAML, query) if item[0] == query] == found


@pytest.mark.parametrize(
    "line",
    [
        "(" + "a-" * 50_000 + "x",  # a Lisp form's name, hyphen after hyphen
        "f(x)::" + " where " * 30_000,  # a Julia short form that never reaches its `=`
        "pipeTable" + ", f" * 30_000 + " ::",  # a Haskell signature naming many
    ],
)
def test_a_hostile_line_defines_nothing_at_once(line):
    # The Julia pattern spent 3 s on 21 KB of `where`s (quadratic); a definition's line is
    # short, and a longer one is not read.
    assert other_definition(line) is None
    assert other_definition(line[:300]) is None  # within the bound, no `::` nor `=`


RUST_ENV_VARS = """pub struct EnvVars;

impl EnvVars {
    /// Equivalent to the `--cache-dir` command-line argument.
    pub const APP_CACHE_DIR: &'static str = "APP_CACHE_DIR";
    pub(crate) const APP_NO_CACHE: &'static str = "APP_NO_CACHE";
}

pub static GLOBAL_CONFIG: OnceLock<Config> = OnceLock::new();
static mut COUNTER: usize = 0;

fn read() {
    let local_value: usize = 1;
    const LIMIT: usize = 5;
}
"""


@pytest.mark.parametrize(
    ("query", "found"),
    [
        # uv's `EnvVars`: an associated constant, at any visibility, inside its `impl`.
        ("APP_CACHE_DIR", [("APP_CACHE_DIR", "envvars")]),
        ("APP_NO_CACHE", [("APP_NO_CACHE", "envvars")]),
        ("GLOBAL_CONFIG", [("GLOBAL_CONFIG", "")]),
        ("COUNTER", [("COUNTER", "")]),
        ("LIMIT", [("LIMIT", "")]),
        # A local binding is no definition.
        ("local_value", []),
    ],
)
def test_rust_constants_and_statics_are_definitions(query, found):
    assert [item for item in definitions(RUST_ENV_VARS, query) if item[0] == query] == found


CLASS_CONSTANTS = """import logging


class RichHandler(logging.Handler):
    \"\"\"A handler.\"\"\"

    KEYWORDS: ClassVar[list[str] | None] = [
        "GET",
    ]
    HIGHLIGHTER_CLASS = ReprHighlighter

    def emit(self, record):
        LEVEL == 3
        level = self.LEVEL


setup() {
    FZF_DEFAULT_COMMAND=find
}
"""


@pytest.mark.parametrize(
    ("query", "found"),
    [
        # rich's `RichHandler.KEYWORDS`: a class's constant, spaced as Python writes one.
        ("KEYWORDS", [("KEYWORDS", "richhandler")]),
        ("HIGHLIGHTER_CLASS", [("HIGHLIGHTER_CLASS", "richhandler")]),
        # A comparison, and a shell's indented assignment, define nothing.
        ("LEVEL", []),
        ("FZF_DEFAULT_COMMAND", []),
    ],
)
def test_a_class_constant_is_a_definition(query, found):
    assert [item for item in definitions(CLASS_CONSTANTS, query) if item[0] == query] == found


@pytest.mark.parametrize(
    ("line", "name"),
    [
        ("local function make_entry(opts)", "make_entry"),  # Lua
        ("sub render_page {", "render_page"),  # Perl
        ("case class Config(port: Int)", "Config"),  # Scala
        ("final case class Route(path: String)", "Route"),
        ("implicit def toJson(x: Int): Json = ???", "toJson"),
        ("lazy val settings = load()", "settings"),
        ("  private[this] def helper(x: Int) = x", "helper"),
        ("contract Token is ERC20 {", "Token"),  # Solidity
        ("    modifier onlyOwner() {", "onlyOwner"),
        ("proc parseArgs*(args: seq[string]) =", "parseArgs"),  # Nim
        ("pub const Allocator = struct {", "Allocator"),  # Zig
    ],
)
def test_definitions_in_more_languages_name_what_they_define(line, name):
    assert definitions(f"{line}\n  body\nend\n", name) == [(name, "")]


TITLED = '''import os

def walk(root):
    """Walk the tree depth first.

    Args:
        root: where to start.
    """
    return iter(root)


/// Parses a header line.
/// Returns None when it is blank.
fn parse_header(line: &str) -> Option<Header> {
    None
}

def stacked(root):
    """
    Yield each node before its children.
    """
    pass

count = compute(
    root,
)
'''


def test_a_definitions_title_is_its_line_and_its_documentations_first_line():
    from tierscope.ranking.definition_titles import definition_titles
    from tierscope.ranking.spans import Span

    lines = split_lines(TITLED)
    spans = [Span(2, 9), Span(2, 4), Span(11, 16), Span(17, 22), Span(23, 26), Span(0, 1)]
    titles = definition_titles(lines, spans)
    assert titles[Span(2, 9)] == (2, 3)  # `def walk(root):`, its docstring's summary
    assert titles[Span(2, 4)] == (2, 3)
    assert titles[Span(11, 16)] == (11, 13)  # a doc comment's first line above
    assert titles[Span(17, 22)] == (17, 19)  # the summary under quotes standing alone
    assert Span(23, 26) not in titles  # a statement defines nothing
    assert Span(0, 1) not in titles  # nor does an import
    assert definition_titles(lines, [Span(2, 3)]) == {Span(2, 3): (2,)}  # within the span


ATTRIBUTES = '''class App:
    TITLE: str | None = None
    """A class variable to set the default title."""

    NOTIFICATION_TIMEOUT: ClassVar[float] = 5
    """
    Default number of seconds to show notifications before removing them.
    """

    count = 0
    total = 1

    def run(self):
        self.ready = True
        """Not an attribute's docstring: a statement's."""
'''


def test_an_attribute_with_a_docstring_under_it_is_titled_by_both():
    from tierscope.ranking.definition_titles import documented_attributes
    from tierscope.ranking.spans import Span, paragraphs

    lines = split_lines(ATTRIBUTES)
    found = documented_attributes(lines, paragraphs(lines))
    assert found == {Span(4, 8): (4, 6)}
    assert documented_attributes(lines, [Span(1, 3)]) == {Span(1, 3): (1, 2)}


def test_an_equation_starts_at_the_type_signature_above_it():
    from tierscope.ranking.code_blocks import signed_start

    lines = split_lines(
        "imageType :: ByteString\n          -> Maybe ImageType\nimageType img = Nothing\n\n"
        "a, b :: Int\nb = 2\n\n"
        "x :: Int\ny = 1\n\n"
        "return value\n"
    )
    assert signed_start(lines, 2) == 0  # over a signature continued on a second line
    assert signed_start(lines, 5) == 4  # a signature naming several
    assert signed_start(lines, 8) == 8  # another name's signature
    assert signed_start(lines, 10) == 10  # no signature above
    # A hostile line of 21,000 characters (a pattern over it once took 1.7 s).
    assert signed_start(["x, " * 7000 + "x :: Int", "x = 1"], 1) == 0
    assert signed_start(["x, " * 7000 + "x", "x = 1"], 1) == 1


_MIXED_CODE = """\
static int
expireIfNeeded(redisDb *db, robj *key) {
    if (keyIsExpired(db, key)) return 1;
    return 0;
}

int activeExpireCycle(int type);

class Cache:
    def expire(self, key):
        \"\"\"Drop the key.\"\"\"
        return expire_now(key)

export const expireAll = (keys) => keys.map(expire)
"""


def test_lines_that_remember_what_they_define_answer_as_plain_lines():
    # Ranking and the snippet ask which name each line defines of the same CodeLines; the
    # answers they remember are the ones read afresh, line by line (the definition a line
    # starts depends on the lines around it: a C name under its type, a body's brace).
    from tierscope.ranking.code_definitions import defines_a_name
    from tierscope.ranking.code_lines import CodeLines

    plain = split_lines(_MIXED_CODE)
    remembering = CodeLines(plain)
    matcher = TermMatcher(query_terms("expire keys"))
    line_terms = matcher.lines(_MIXED_CODE)
    expected = list(defined_as_spelt(plain, line_terms, matcher))
    assert ("expireIfNeeded" in dict(map(reversed, expected))) and len(expected) >= 3
    for _ in range(2):  # the second pass answers from what the first remembered
        assert list(defined_as_spelt(remembering, line_terms, matcher)) == expected
        assert [defines_a_name(remembering, i) for i in range(len(plain))] == [
            defines_a_name(plain, i) for i in range(len(plain))
        ]
    assert remembering.defined  # it did remember


def test_a_snippet_cut_from_the_lines_ranking_read_is_the_one_cut_from_the_text():
    from tierscope.ranking.code_lines import CodeLines
    from tierscope.ranking.sections import cut_snippet

    matcher = TermMatcher(query_terms("expire keys"))
    line_terms = matcher.lines(_MIXED_CODE)
    weights = {key: 1.0 for on_line in line_terms.values() for key in on_line}
    options = {"max_chars": 200, "max_line_chars": 120, "matcher": matcher}
    lines = CodeLines(split_lines(_MIXED_CODE))
    list(defined_as_spelt(lines, line_terms, matcher))  # read by ranking first
    from_text = cut_snippet(_MIXED_CODE, "src/db.c", line_terms, weights, **options)
    from_lines = cut_snippet(_MIXED_CODE, "src/db.c", line_terms, weights, **options, lines=lines)
    assert from_lines == from_text
    assert "expire" in from_text.text


def test_a_rust_macro_by_example_is_a_definition():
    # minijinja's `macro_rules! embed_templates` was no definition: "embed_templates
    # build.rs" was served the hidden helper `fn _embed_templates` instead.
    text = (
        "/// Stores templates in a build.rs file.\n#[macro_export]\n"
        "macro_rules! embed_templates {\n"
        "    ($path:expr) => {{ $crate::_embed_templates($path) }};\n}\n"
        "\n#[doc(hidden)]\npub fn _embed_templates(path: &str) -> String {\n    path.into()\n}\n"
    )
    assert definitions(text, "embed_templates")[0] == ("embed_templates", "")


def test_a_javascript_object_literals_methods_are_definitions():
    # sinon's proxy.js defines `resetHistory: function () {` in `const proxyApi = {` (125
    # of its methods are written so): it was told it "does not define" resetHistory.
    text = (
        "const proxyApi = {\n"
        "    resetHistory: function () {\n"
        "        if (this.invoking) {\n"
        '            throw new Error("Cannot reset Sinon function while invoking it.");\n'
        "        }\n    },\n\n"
        "    matchingFakes: async function (args) {\n        return [];\n    },\n\n"
        "};\n"
    )
    for name in ("resetHistory", "matchingFakes"):
        assert (name, "proxyapi") in definitions(text, name) or (name, "") in definitions(
            text, name
        ), (name, definitions(text, name))


def test_a_function_a_factorys_body_assigns_to_a_const_is_a_definition():
    # zustand's createStoreImpl defines `const setState: StoreApi<TState>['setState'] =
    # (partial, replace) => {` in its body: vanilla.ts was told it "does not define"
    # setState, under middleware assigning `store.setState = ...`.
    text = (
        "const createStoreImpl: CreateStoreImpl = (createState) => {\n"
        "  let state: TState\n"
        "  const listeners: Set<Listener> = new Set()\n\n"
        "  const setState: StoreApi<TState>['setState'] = (partial, replace) => {\n"
        "    state = Object.assign({}, state, partial)\n"
        "  }\n\n"
        "  const getState = () => state\n"
        "  const subscribe = async function (listener) {\n"
        "    listeners.add(listener)\n"
        "  }\n"
        "  return { setState, getState, subscribe }\n"
        "}\n"
    )
    for name in ("setState", "getState", "subscribe"):
        assert name in [found for found, _ in definitions(text, name)], name
    # A value in a body is no definition: only functions are.
    assert "listeners" not in [found for found, _ in definitions(text, "listeners")]


def test_a_name_asked_for_is_its_public_definition_not_its_private_twin():
    # structlog's _native.py defines `make_filtering_bound_logger` and the internal
    # `_make_filtering_bound_logger` it calls: "make_filtering_bound_logger" was served
    # the private one, longer and denser, read as the same name.
    text = (
        "def make_filtering_bound_logger(min_level):\n"
        '    """Create a new FilteringBoundLogger that only logs min_level or higher.\n\n'
        "    If you pass a string, it must be one of the level names.\n"
        '    """\n'
        "    if isinstance(min_level, str):\n"
        "        min_level = NAME_TO_LEVEL[min_level.lower()]\n"
        "    return LEVEL_TO_FILTERING_LOGGER[min_level]\n\n\n"
        "def _make_filtering_bound_logger(min_level):\n"
        '    """Create a filtering bound logger for min_level, an int."""\n'
        "    def make_method(level):\n"
        "        if level < min_level:\n"
        "            return _nop\n"
        "        name = LEVEL_TO_NAME[level]\n"
        "        return make_filtering_bound_logger_method(name)\n"
        "    meths = {name: make_method(level) for name, level in NAME_TO_LEVEL.items()}\n"
        "    return type('BoundLoggerFilteringAt', (BoundLoggerBase,), meths)\n"
    )
    cut = snippet(text, "src/structlog/_native.py", "make_filtering_bound_logger", 300)
    assert cut.text.startswith("def make_filtering_bound_logger(min_level):"), cut.text


@pytest.mark.parametrize(
    "line",
    [
        # moshi's JsonReader.kt writes its API so, an annotation on the declaration's line.
        "  @CheckReturnValue public abstract fun peekJson(): JsonReader",
        "    @Throws(IOException::class) public abstract fun peekJson(): JsonReader",
        "  @JvmStatic fun peekJson() = reader",
    ],
)
def test_an_annotation_on_a_definitions_line_leaves_it_a_definition(line):
    # JsonReader.kt was told it "does not define" peekJson, under the one-line overrides
    # of its subclasses.
    assert ("peekJson", "") in definitions(line + "\n", "peekJson") or [
        name for name, _ in definitions(line + "\n", "peekJson")
    ] == ["peekJson"], definitions(line + "\n", "peekJson")
