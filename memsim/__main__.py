from memsim.cli import main

main()
