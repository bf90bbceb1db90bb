"""A page's title is what each of its sections is about: its words count for every
section, not only for the opening one under it."""

from __future__ import annotations

from snippet_cuts import snippet

NO_STD = (
    "# No-std support\n\n"
    "The crate has a Cargo feature named `std`, on by default. To build it for a no_std\n"
    "target, turn the default features off in Cargo.toml:\n\n"
    '```toml\n[dependencies]\nwire = { version = "1", default-features = false }\n```\n\n'
    "Features are unioned across the dependency graph: one crate asking for `std` turns\n"
    "it on for all of them.\n\n"
    "### Derive\n\n"
    "The derive macros work the same in a no_std crate, with the `derive` feature.\n\n"
    "### Memory allocation\n\n"
    "Without `std`, the types that need a heap (`String`, `Vec<T>`) are left out.\n"
    "You can opt back in to them by enabling the `alloc` Cargo feature, which needs\n"
    "an allocator but not the rest of the standard library.\n"
)


def test_the_title_counts_for_each_section_under_it():
    # serde.rs's no-std.md: "no_std alloc feature" was served the opening section, whose
    # title held `no` and `std`, not "Memory allocation" below, which says how.
    cut = snippet(NO_STD, "_src/no-std.md", "no_std alloc feature", max_chars=300)
    assert "enabling the `alloc` Cargo feature" in cut.text, cut.text
