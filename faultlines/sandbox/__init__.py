"""Grading untrusted code: the judge in one process, the learner's code in another, jailed.

The CLI grades a student's file without trusting it. Two processes do the work:

- the judge (trusted: the CLI itself, or one judge process per submission in `grade-all`) runs
  miniray, the exercise's checks, the tiers and the verdict;
- the untrusted process runs only the learner's code, inside bubblewrap: no network, its own PID
  namespace, a read-only view of the Python install and of miniray/ and faultlines/'s code, a
  private scratch folder, no capabilities, an empty environment, CPU, memory, process-count and
  wall-clock limits.

They talk over a pipe with a small request/response protocol (`wire`, `channel`) that either side
may use while it waits for a reply: the judge asks for a learner function to be run, the learner's
code asks back for `ray.get`, `time.sleep` or a method of an object the exercise handed it.

Modules:
    machine   what this machine allows (bubblewrap, namespaces, the pids cgroup, a non-root uid)
    cgroup    a pids cgroup per jailed process: a cap on processes that binds root too
    jail      the bubblewrap command line; start, kill and clean up one jailed process
    wire      the safe encoding of values (plain data and opaque handles, never pickle)
    errors    exceptions across the boundary: class name, message, traceback text
    records   the few classes both sides rebuild by value (scheduling strategies)
    channel   the re-entrant request/response loop over two pipes, with size and time bounds
  in the jail:
    inside    its main: load the submission, serve the judge's requests
    client    the `miniray` the learner's code imports there: Ray's API, forwarded
    handles   the jail's end of the link: its tables, stand-ins for the judge's objects
    processes each simulated worker process's own copy of the learner's state, kept there
  in the judge:
    judge     the conversation with one jail (Bridge), values and exceptions from it
    served    the jail's requests the judge answers: miniray's table of what a learner may ask
              (miniray.api_surface) and the exercise's services, nothing else
    surface   what the jail is told of that table (the names it forwards)
    exposure  which attributes of the judge's objects learner code may read or call
    kinds     miniray's kinds of object, told apart by identity through its public face
    proxies   the judge's stand-ins for the learner's functions, actor classes and objects
    jailed    the grader's Submission whose code runs in a jail, and its statement count
    run       grade one submission this way (used by `grade`, `grade-all` and `--ray`)
"""
