"""Everything wrong with a config, with line numbers: what the loader already reports
(wrong types, unknown keys and tiers, unknown scopes in overrides, non-positive budgets)
plus what only matters when editing — duplicate keys, paths outside the root or missing,
a `ck_path` pointing into ck's index."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path

import yaml

from ..project import contain, inside_index_dir
from .document import ConfigDocument
from .loader import SECTION, parse_config
from .model import ConfigProblem, ConfigSource, normalise_skill
from .yaml_nodes import MERGE_TAG, YamlSyntaxError, load_located

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def validate(
    config: str | ConfigDocument, root: Path, path: Path | None = None
) -> list[ConfigProblem]:
    """All problems of a config text (or a document's current text), errors and warnings,
    ordered by line. Paths are checked against `root` with symlinks resolved."""
    if isinstance(config, ConfigDocument):
        text, path = config.text, path or config.path
    else:
        text = config
    file = str(path) if path is not None else "<config>"
    parsed = parse_config(text, ConfigSource(path, "validate"))
    try:
        located = load_located(text, only_key=SECTION)
    except YamlSyntaxError:
        return list(parsed.problems)  # the loader's one problem: invalid YAML, at its line
    problems = list(parsed.problems)
    problems.extend(_duplicates(text, file))
    document = located.data
    section = document.get(SECTION) if isinstance(document, Mapping) else None
    if isinstance(section, Mapping):
        checker = _PathChecker(Path(root).resolve(), located.lines, file)
        problems.extend(checker.check(section))
    return sorted(problems, key=lambda problem: (problem.line or 0, problem.key))


class _PathChecker:
    def __init__(self, root: Path, lines: Mapping[str, int], file: str) -> None:
        self.root = root
        self.lines = lines
        self.file = file

    def check(self, section: Mapping) -> Iterator[ConfigProblem]:
        scopes = section.get("scopes")
        if isinstance(scopes, Mapping):
            for name, body in scopes.items():
                if isinstance(body, Mapping):
                    yield from self._scope(str(name), body)
        # Where tierscope writes its own state: created on first use, so a missing
        # directory is normal; outside the root it is not.
        for group, key in (("trajectory", "dir"), ("store", "path")):
            settings = section.get(group)
            if isinstance(settings, Mapping):
                raw = settings.get(key)
                if isinstance(raw, str) and raw.strip():
                    yield from self._path(raw, f"{group}.{key}", must_exist=False)

    def _scope(self, name: str, body: Mapping) -> Iterator[ConfigProblem]:
        base = f"scopes.{name}"
        grep_paths = body.get("grep_paths")
        if isinstance(grep_paths, list):
            for index, raw in enumerate(grep_paths):
                if isinstance(raw, str):
                    yield from self._path(raw, f"{base}.grep_paths.{index}", must_exist=True)
        ck_path = body.get("ck_path")
        if isinstance(ck_path, str) and ck_path.strip():
            yield from self._ck_path(ck_path, f"{base}.ck_path")

    def _ck_path(self, raw: str, key: str) -> Iterator[ConfigProblem]:
        resolved, reason = contain(raw, self.root)
        if resolved is None:
            yield self._problem(key, reason)
        elif inside_index_dir(resolved, self.root):
            yield self._problem(
                key,
                f"{raw}: inside a .ck/ index directory; ck searches source paths, not its "
                "index, so the scope's grep paths will be searched with ck instead",
                "warning",
            )
        elif not resolved.exists():
            yield self._problem(key, f"{raw}: does not exist", "warning")

    def _path(self, raw: str, key: str, must_exist: bool) -> Iterator[ConfigProblem]:
        resolved, reason = contain(raw, self.root)
        if resolved is None:
            yield self._problem(key, reason)
        elif must_exist and not resolved.exists():
            yield self._problem(key, f"{raw}: does not exist", "warning")

    def _problem(self, key: str, message: str, severity: str = "error") -> ConfigProblem:
        line = self.lines.get(f"{SECTION}.{key}")
        return ConfigProblem(message, self.file, line, key, severity)


def _duplicates(text: str, file: str) -> Iterator[ConfigProblem]:
    """Keys given twice in one mapping of the section (and the section itself twice).
    PyYAML keeps the last silently, so an earlier definition would vanish unnoticed."""
    root = yaml.compose(text, Loader=_Loader)
    if not isinstance(root, yaml.MappingNode):
        return
    sections = [(key, value) for key, value in root.value if _key(key) == SECTION]
    yield from _repeated(sections, "", "the qmd_context section", file)
    if sections:
        yield from _walk(sections[-1][1], "", file, set())


def _walk(node: yaml.Node, path: str, file: str, seen: set[int]) -> Iterator[ConfigProblem]:
    if id(node) in seen or not isinstance(node, yaml.MappingNode):
        return
    seen.add(id(node))
    entries = [(key, value) for key, value in node.value if key.tag != MERGE_TAG]
    if path == "scopes":
        groups = _group(entries, _key)
        yield from (
            problem
            for name, group in groups.items()
            for problem in _repeated(group, f"scopes.{name}", f"scope {name!r}", file)
        )
    elif path == "skill_overrides":
        # review-sprint and review_sprint are one skill: two overrides for it conflict.
        groups = _group(entries, lambda key: normalise_skill(_key(key)))
        yield from (
            problem
            for group in groups.values()
            for problem in _repeated(
                group, f"skill_overrides.{_key(group[0][0])}", f"skill {_key(group[0][0])!r}", file
            )
        )
    else:
        for name, group in _group(entries, _key).items():
            child = f"{path}.{name}" if path else name
            yield from _repeated(group, child, f"key {name!r}", file)
    for key, value in entries:
        child = f"{path}.{_key(key)}" if path else _key(key)
        yield from _walk(value, child, file, seen)


def _group(entries, name_of) -> dict[str, list]:
    groups: dict[str, list] = {}
    for key, value in entries:
        groups.setdefault(name_of(key), []).append((key, value))
    return groups


def _repeated(group: list, key: str, what: str, file: str) -> Iterator[ConfigProblem]:
    """One problem on each definition that the last one silently replaces."""
    if len(group) < 2:
        return
    lines = [key_node.start_mark.line + 1 for key_node, _ in group]
    listed = ", ".join(str(line) for line in lines)
    for key_node, _ in group[:-1]:
        yield ConfigProblem(
            f"{what} is defined more than once (lines {listed}); only the last is used",
            file,
            key_node.start_mark.line + 1,
            key or SECTION,
        )


def _key(node: yaml.Node) -> str:
    if isinstance(node, yaml.ScalarNode):
        try:
            return str(yaml.constructor.SafeConstructor().construct_object(node))
        except yaml.constructor.ConstructorError:
            return node.value  # a key with an application's own tag: its text
    return str(node.value)
