from quotactl.cli.app import main

main()
