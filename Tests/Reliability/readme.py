"""The example outputs of README and the manual (docs/manual.md), checked: the demo is made and
mounted as README says, each `$ ` command of their demo blocks runs in order (README's, then the
manual's, on the same mount), and its output must be what the page shows. What
differs from machine to machine is masked on both sides: byte counts (ImageMagick makes the demo
photos), clock times, the cache file's hash. `python3 Tests/Reliability/readme.py --show` prints
what the commands print now, to update the pages from."""
import os
import re
import subprocess
import sys
import tempfile

from harness import BINARY, ROOT

# In the order their commands run: the manual's cache figures follow README's tour of the demo.
PAGES = [os.path.join(ROOT, "README.md"), os.path.join(ROOT, "docs", "manual.md")]
MASKS = [
    (re.compile(r"\b[A-Z][a-z]{2} [ \d]\d \d\d:\d\d\b"), "<time>"),         # ls -l
    (re.compile(r"\b\d+\.\d+u \d+:\d+\.\d+\b"), "<cpu>"),                     # identify
    # the cache file: its name's hash is written without leading zeros (1 in 16 paths has fewer digits)
    (re.compile(r"\S*/\.cache/assetfs/(\S+)-[0-9a-f]{1,16}\.sqlite"), r"~/.cache/assetfs/\1-<hash>.sqlite"),
    (re.compile(r"\b\d+ s ago\b"), "<n> s ago"),
    (re.compile(r"^total \d+$"), "total <n>"),
    (re.compile(r"\b\d{4,}B?\b"), "<bytes>"),                                 # byte counts
]


def examples():
    """(page, command, expected lines) of every `$ ` line in the pages' fenced blocks, in order: a
    command's expected output is the block's lines up to the next command or the block's end."""
    result = []
    for page in PAGES:
        result += [(os.path.relpath(page, ROOT), command, expected) for command, expected in page_examples(page)]
    return result


def page_examples(page):
    result, block, current = [], False, None
    for line in open(page, encoding="utf-8").read().splitlines():
        if line.startswith("```"):
            block, current = not block, None
        elif block and line.startswith("$ "):
            current = []
            result.append((line[2:].split("  #")[0].strip(), current))
        elif current is not None:
            current.append(line)
    for _, expected in result:
        while expected and not expected[-1]:
            expected.pop()
    return result


def masked(line):
    for pattern, replacement in MASKS:
        line = pattern.sub(replacement, line)
    return line


def matches(expected, actual):
    """Whether `actual` lines are `expected` (masked), where a `...` line stands for any lines."""
    expected, actual = [masked(l) for l in expected], [masked(l) for l in actual]
    if "..." not in expected:
        return expected == actual
    pattern = "".join(re.escape(l + "\n") if l != "..." else "(?:.*\n)*?" for l in expected)
    return re.fullmatch(pattern, "".join(l + "\n" for l in actual)) is not None


def run(show=False):
    """Makes the demo in a scratch HOME, runs the pages' demo commands, returns the problems."""
    problems = []
    home = tempfile.mkdtemp(prefix="assetfs-readme-")
    os.chmod(home, 0o755)
    bin_dir = os.path.join(home, "bin")
    os.makedirs(bin_dir)
    os.symlink(BINARY, os.path.join(bin_dir, "assetfs"))
    env = dict(os.environ, HOME=home, ASSETFS_BINARY=BINARY, PATH=f"{bin_dir}:{os.environ['PATH']}", LC_ALL="C.UTF-8", TZ="UTC")
    env.pop("ASSETFS_DEMO", None)
    demo = os.path.join(home, "assetfs-demo")
    try:
        made = subprocess.run([os.path.join(ROOT, "mount-scripts", "assetfs")], env=env, capture_output=True, text=True, timeout=600)
        if made.returncode != 0:
            return [f"mount-scripts/assetfs failed: {made.stderr[-1000:]}"]
        cwd = home
        for page, command, expected in examples():
            if "/mnt/assets/" in command:  # a user's library, not the demo's
                continue
            if command.startswith("cd "):
                cwd = os.path.expanduser(command[3:].replace("~", home))
                continue
            out = subprocess.run(["bash", "-c", command], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
            # stdout alone: progress lines go to stderr
            actual = out.stdout.rstrip("\n").split("\n") if out.stdout else []
            if out.returncode != 0:
                problems.append(f"{page}'s `$ {command}` exits {out.returncode}: {out.stderr[-500:]}")
            if show:
                print(f"$ {command}\n" + "\n".join(actual))
            elif not matches(expected, actual):
                problems.append(f"{page}'s `$ {command}` shows:\n    " + "\n    ".join(expected)
                                + "\n  but it prints:\n    " + "\n    ".join(actual))
    finally:
        subprocess.run(["fusermount3", "-u", "-z", os.path.join(demo, "mnt")], capture_output=True)
        subprocess.run(["rm", "-rf", home])
    return problems


def check(checks):
    problems = run()
    if not problems:
        checks.figure(f"README and the manual: {len(examples())} example commands of the demo print what they show")
    return problems


if __name__ == "__main__":
    sys.exit(0 if not print("\n\n".join(run(show="--show" in sys.argv))) else 1)
