from tierscope.cli import main

raise SystemExit(main())
