"""Files that only declare, told by their text (declaration_files.py)."""

from tierscope.ranking.declaration_files import declares_only

INTERFACE = """<?php declare(strict_types=1);

namespace Composer\\DependencyResolver\\Operation;

/**
 * Solver operation interface.
 */
interface OperationInterface
{
    /**
     * Returns operation type.
     */
    public function getOperationType(): string;

    /**
     * Serializes the operation in a human readable format.
     */
    public function show(
        bool $lock
    ): string;
}
"""

CONSTANTS = """<?php
namespace Composer\\Script;

class ScriptEvents
{
    public const PRE_INSTALL_CMD = 'pre-install-cmd';

    public const POST_INSTALL_CMD = 'post-install-cmd';
}
"""

CODE = """<?php
namespace Composer\\DependencyResolver;

class Problem
{
    public const X = 1;

    public function getPrettyString(): string
    {
        return 'a problem';
    }
}
"""


def test_an_interface_and_a_class_of_constants_only_declare():
    assert declares_only("src/OperationInterface.php", INTERFACE.splitlines())
    assert declares_only("src/ScriptEvents.php", CONSTANTS.splitlines())


def test_a_java_interface_is_the_api_its_javadoc_documents():
    # Retrofit's Call.java: the interface's Javadoc is where its behaviour is explained
    # ("call timeout", "fire the same request again"); weighed as declarations, it came
    # below the implementations that only repeat `@Override timeout()`.
    java = "package a;\n\npublic interface Listener {\n  void onEvent(String name);\n}\n"
    assert not declares_only("src/Listener.java", java.splitlines())


def test_code_with_bodies_or_fields_does_not():
    assert not declares_only("src/Problem.php", CODE.splitlines())
    fields = "package a;\n\npublic class Point {\n  private int x;\n}\n"
    assert not declares_only("src/Point.java", fields.splitlines())
    typescript = "export interface L {\n  x(): void;\n}\n"
    assert not declares_only("src/Listener.ts", typescript.splitlines())
