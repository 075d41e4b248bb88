from apispec.cli import main

raise SystemExit(main())
