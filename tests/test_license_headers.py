"""A source file's licence header counts for nothing (license_headers.py)."""

from snippet_cuts import snippet

from tierscope.ranking.license_headers import without_license_header

APACHE = (
    "/*\n"
    " * Copyright (C) 2012 Square, Inc.\n"
    " *\n"
    ' * Licensed under the Apache License, Version 2.0 (the "License");\n'
    " * you may not use this file except in compliance with the License.\n"
    " * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.\n"
    " */\n"
)
MIT_LINES = (
    "// Copyright (c) 2016 The Authors\n"
    "// Permission is hereby granted, free of charge, to any person obtaining a copy of\n"
    "// this software, to deal in the Software without restriction, including the rights\n"
)


def test_a_licence_header_is_blanked_line_for_line():
    code = "package okhttp3\n\nclass OkHttpClient {\n  val timeout = 10\n}\n"
    text = APACHE + code
    blanked = without_license_header(text)
    assert len(blanked) == len(text) and blanked.count("\n") == text.count("\n")
    assert blanked.endswith(code)
    assert not blanked[: len(APACHE)].strip()


def test_line_comments_after_a_shebang_and_a_package_line():
    text = "#!/usr/bin/env node\n" + MIT_LINES + "'use strict'\nconst kind = 1\n"
    blanked = without_license_header(text)
    assert blanked.startswith("#!/usr/bin/env node\n")
    assert "Permission" not in blanked and "const kind = 1" in blanked
    go = "// Copyright 2013 The Cobra Authors\n//\n// Licensed under the Apache License.\n"
    assert "Licensed" not in without_license_header(go + "package cobra\n")


def test_a_comment_that_grants_no_licence_is_kept():
    text = "/*\n * The client: use it to make calls of any kind.\n */\nclass Client {}\n"
    assert without_license_header(text) == text
    # Nor is a licence named further down the file.
    late = "package x\n" + "val a = 1\n" * 20 + "// Licensed under the MIT license.\n"
    assert without_license_header(late) == late
    # A docstring is no comment of lines: Python's module docstring granting one is.
    doc = '"""\nLicensed under the MIT license.\n"""\nimport os\n'
    assert "Licensed" not in without_license_header(doc)


def test_a_header_licensed_to_a_foundation_is_a_licence_header():
    # OkHttp's ConnectInterceptor.kt: "Licensed to the Apache Software Foundation (ASF)".
    asf = (
        "/*\n *  Licensed to the Apache Software Foundation (ASF) under one or more\n"
        " *  contributor license agreements.  See the NOTICE file distributed with\n"
        " *  this work for additional information regarding copyright ownership.\n */\n"
    )
    assert "Licensed" not in without_license_header(asf + "package okhttp3\n")
    spdx = "// SPDX-License-Identifier: MIT\nfn main() {}\n"
    assert "SPDX" not in without_license_header(spdx)


def test_a_module_description_after_the_licence_lines_is_kept():
    # pandoc's Haddock headers: the licence fields, then what the module does.
    text = (
        "{-# LANGUAGE OverloadedStrings #-}\n{- |\n   Module      : Text.Pandoc.Format\n"
        "   Copyright   : 2022-2024 Albert Krewinkel\n   License     : GPL-2.0-or-later\n"
        "   Maintainer  : Albert Krewinkel\n\nHandling of format specifiers for input and output.\n"
        "-}\nmodule Text.Pandoc.Format where\n"
    )
    blanked = without_license_header(text)
    assert "GPL" not in blanked and "Copyright" not in blanked
    assert "Handling of format specifiers for input and output." in blanked


def test_the_bsd_and_isc_permission_notices_are_licence_headers():
    # tmux's compat/daemon.c (OpenBSD's, under the Regents' BSD licence) and every tmux
    # file's ISC notice: neither names a licence, and "conditions modify" served three
    # licences before tmux's code.
    bsd = (
        "/*\t$OpenBSD: daemon.c,v 1.6 2005/08/08 08:05:33 espie Exp $ */\n"
        "/*-\n * Copyright (c) 1990, 1993\n *\tThe Regents of the University of California.\n"
        " *\n * Redistribution and use in source and binary forms, with or without\n"
        " * modification, are permitted provided that the following conditions\n"
        " * are met:\n */\n"
    )
    blanked = without_license_header(bsd + "#include <fcntl.h>\n")
    assert "Redistribution" not in blanked and "conditions" not in blanked
    assert blanked.endswith("#include <fcntl.h>\n")
    isc = (
        "/* $OpenBSD$ */\n\n/*\n * Copyright (c) 2007 Nicholas Marriott\n *\n"
        " * Permission to use, copy, modify, and distribute this software for any\n"
        " * purpose with or without fee is hereby granted, provided that the above\n"
        " * copyright notice and this permission notice appear in all copies.\n */\n"
    )
    blanked = without_license_header(isc + "#include <sys/types.h>\n")
    assert "modify" not in blanked and blanked.endswith("#include <sys/types.h>\n")


def test_a_small_file_served_whole_is_served_without_its_licence_header():
    # Koin's ClosedScopeException.kt: 15 lines of the Apache licence over a one-line class,
    # served whole, header first: 120 of a skill's tokens for text every file repeats.
    code = (
        "package org.koin.core.error\n\n"
        "/**\n * Scope is Closed - Exception\n */\n"
        "class ClosedScopeException(msg: String) : Exception(msg)\n"
    )
    cut = snippet(APACHE + code, "core/error/ClosedScopeException.kt", "closed scope", 1500)
    assert "Licensed under" not in cut.text and "Copyright" not in cut.text
    assert cut.text == code.rstrip("\n")
    assert cut.line_start == APACHE.count("\n") + 1


def test_a_module_description_in_the_licence_comment_is_still_served():
    # Only a comment that is the licence and nothing else is left out of a snippet.
    header = APACHE.replace(" */\n", " *\n * The client keeps closed scopes apart.\n */\n")
    code = "package okhttp3\n\nclass ClosedScope\n"
    cut = snippet(header + code, "okhttp3/ClosedScope.kt", "closed scope", 1500)
    assert "The client keeps closed scopes apart." in cut.text
