#!/bin/sh
# Re-record NAME.lint (what `php -n -l NAME.php` prints, run from the file's
# folder, then its exit status) for every NAME.php under tests/syntax.
# Needs PHP 8.2; the tests (tests/all/syntax.rs) only read the recordings.
set -e
cd "$(dirname "$0")"
for dir in valid invalid; do
    (cd "$dir" && for f in *.php; do
        status=0
        php -n -l "$f" > "${f%.php}.lint" 2>&1 || status=$?
        echo "exit $status" >> "${f%.php}.lint"
    done)
done
