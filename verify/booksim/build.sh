#!/bin/sh
# build.sh builds BookSim2 (github.com/booksim/booksim2) for the side-by-side
# comparison of docs/booksim.md, outside the repository.
#
# usage: verify/booksim/build.sh [SOURCE [DEST]]
#   SOURCE  a clone URL, a local git repository (bare or not) or a plain
#           source tree; default https://github.com/booksim/booksim2.git
#   DEST    where the tree is put and built; default /opt/booksim2
# It needs git (for a URL or repository), g++, make, flex and bison
# (Debian: apt-get install -y g++ make flex bison), and prints the path of
# the binary, DEST/src/booksim; put that folder on PATH for the tests
# (`booksim` on PATH) or pass the binary to the commands with -booksim.
# The comparison was made at commit 28f43299; set BOOKSIM_COMMIT to pin
# another (default: that commit when SOURCE has it, else its HEAD).
set -eu
src=${1:-https://github.com/booksim/booksim2.git}
dest=${2:-/opt/booksim2}
commit=${BOOKSIM_COMMIT:-28f43299}

for tool in g++ make flex bison; do
	command -v "$tool" >/dev/null || { echo "build.sh: $tool not found (apt-get install -y g++ make flex bison)" >&2; exit 1; }
done
if [ -e "$dest" ] && [ -n "$(ls -A "$dest" 2>/dev/null)" ]; then
	echo "build.sh: $dest exists and is not empty; remove it or name another DEST" >&2
	exit 1
fi
mkdir -p "$dest"

if [ -d "$src" ] && [ -f "$src/src/Makefile" ]; then
	# a plain source tree (or a work tree): copy it
	cp -R "$src/." "$dest/"
else
	# a URL or a git repository: export the pinned commit (or HEAD)
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	if [ -d "$src" ] && git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
		git_dir=$(cd "$src" && git rev-parse --absolute-git-dir)
	else
		git clone --quiet --bare "$src" "$tmp/repo.git"
		git_dir=$tmp/repo.git
	fi
	rev=HEAD
	if git --git-dir="$git_dir" rev-parse --quiet --verify "$commit^{commit}" >/dev/null; then
		rev=$commit
	fi
	echo "build.sh: BookSim2 at $(git --git-dir="$git_dir" rev-parse --short "$rev")" >&2
	git --git-dir="$git_dir" archive "$rev" | tar -x -C "$dest"
fi

# One job: the machine is shared. MAKEFLAGS=-j4 to go faster.
make -C "$dest/src" >"$dest/build.log" 2>&1 || { tail -20 "$dest/build.log" >&2; exit 1; }
test -x "$dest/src/booksim"
echo "$dest/src/booksim"
