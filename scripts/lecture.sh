#!/usr/bin/env bash
# Lecture mode: serve a notebook with Voila as a clean app for a projector.
#
#   scripts/lecture.sh NOTEBOOK [PORT] [EXTRA VOILA OPTIONS...]
#   scripts/lecture.sh FOLDER [PORT] [EXTRA VOILA OPTIONS...]
#
# - NOTEBOOK: that notebook at http://localhost:PORT/; FOLDER: a list of the notebooks under it at
#   http://localhost:PORT/, each one at /voila/render/<its path under FOLDER> (one server for a
#   whole course; each page still runs its notebook in a fresh kernel);
# - code cells hidden (Voila's default), only outputs and widgets shown;
# - each cell may run at most LECTURE_CELL_TIMEOUT seconds (default 300) before Voila gives up;
# - closing or reloading a page ends its kernel (the page asks Voila to; see the template below);
#   a kernel whose page vanished without asking (a crashed browser, a lost network) is shut down
#   after LECTURE_CULL_IDLE seconds idle (default 600); a page that is still open keeps its
#   kernel however long the instructor talks;
# - large plots: matplotlib reads the rc file this script writes ($MATPLOTLIBRC), and the page
#   uses a "d2l-lecture" Voila template (the lab template plus larger fonts and widgets);
#   D2L_EXT_LECTURE=1 is set in the kernel's environment for notebooks that want to adapt further;
# - listens on LECTURE_IP (default localhost) at PORT (default 8866), no browser is opened;
#   Voila asks for no token unless given --token, so any other address without one gets a warning;
# - runs as root too (containers): Voila, unlike JupyterLab, does not refuse it;
# - Notebook 7's and jupytext's JupyterLab extensions are not loaded into the page: they need JupyterLab modules
#   Voila does not provide and only throws a JavaScript error there.
#
# Python: $PYTHON if set, else .venv/bin/python at the repository root if present, else python3.
# Stop with Ctrl-C. Extra options go to voila as they are, e.g. --show_tracebacks=True.
set -euo pipefail

usage() {
    echo "usage: $0 NOTEBOOK|FOLDER [PORT] [EXTRA VOILA OPTIONS...]" >&2
    echo "  e.g. $0 notebooks/en/13.3.1-Parallel-Computation-on-Devices.ipynb 8866" >&2
    echo "       $0 notebooks/en 8866   (every notebook under the folder, listed at http://localhost:8866/)" >&2
    exit 2
}

[[ $# -ge 1 ]] || usage
case "$1" in -h | --help) usage ;; esac
notebook=$1
shift
port=8866
if [[ $# -ge 1 && $1 != -* ]]; then
    port=$1
    shift
fi
if [[ -d $notebook ]]; then
    what="the notebooks under $notebook (each at /voila/render/<path>)"
else
    [[ -f $notebook ]] || { echo "lecture.sh: no such notebook or folder: $notebook" >&2; exit 2; }
    [[ $notebook == *.ipynb ]] || { echo "lecture.sh: not a notebook (.ipynb): $notebook" >&2; exit 2; }
    what=$notebook
fi
[[ $port =~ ^[0-9]+$ ]] || { echo "lecture.sh: PORT must be a number, got: $port" >&2; exit 2; }

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
python=${PYTHON:-}
if [[ -z $python ]]; then
    if [[ -x $repo/.venv/bin/python ]]; then python=$repo/.venv/bin/python; else python=python3; fi
fi
if ! "$python" -c 'import importlib.util as u, sys; sys.exit(u.find_spec("voila") is None)' 2>/dev/null; then
    echo "lecture.sh: voila is not installed for $python; install it with:" >&2
    echo "  $python -m pip install 'voila>=0.5,<0.6'   (or set PYTHON=/path/to/venv/bin/python)" >&2
    exit 1
fi

cell_timeout=${LECTURE_CELL_TIMEOUT:-300}
cull_idle=${LECTURE_CULL_IDLE:-600}
ip=${LECTURE_IP:-localhost}

token=no
for arg in "$@"; do
    case $arg in --token | --token=* | --Voila.token=* | --Voila.auto_token=True) token=yes ;; esac
done
case $ip in
    localhost | 127.0.0.1 | ::1) ;;
    *)
        [[ $token == yes ]] || cat >&2 <<WARNING
lecture.sh: WARNING: listening on $ip, not only on this machine, with no token or password:
everyone who can reach port $port on this address can open the lecture and run code in its kernel
on this machine, as user $(id -un). To protect it, leave LECTURE_IP unset (localhost) and reach it
from another computer through an SSH tunnel (ssh -L $port:localhost:$port $(id -un)@$(hostname)),
or add --token after the port (Voila then prints a URL with a token, and only that URL opens it).
WARNING
        ;;
esac

work=$(mktemp -d "${TMPDIR:-/tmp}/d2l-lecture.XXXXXX")
cleanup() { rm -rf "$work"; }
trap cleanup EXIT

# Large, readable matplotlib figures for every notebook without touching the notebooks.
# (matplotlib-inline >= 0.1.4 no longer overrides rc, so these hold unless a notebook
# sets figsize itself, e.g. d2l.set_figsize(); notebooks should skip that when D2L_EXT_LECTURE=1.)
cat >"$work/matplotlibrc" <<'EOF'
figure.figsize: 10, 6
figure.dpi: 100
font.size: 16
axes.titlesize: 20
axes.labelsize: 18
xtick.labelsize: 15
ytick.labelsize: 15
legend.fontsize: 15
lines.linewidth: 2.5
lines.markersize: 9
EOF

# A Voila template: the standard "lab" template with bigger text, tables and widgets.
tpl=$work/share/voila/templates/d2l-lecture
mkdir -p "$tpl"
echo '{"base_template": "lab"}' >"$tpl/conf.json"
cat >"$tpl/index.html.j2" <<'EOF'
{%- extends 'lab/index.html.j2' -%}
{%- block html_head_js -%}
{{ super() }}
<script>
  // Closing or reloading the page should end its kernel: Voila's page asks for that with the
  // _xsrf cookie's value, but Voila 0.5 never sets the cookie, so the request fails (403) and the
  // kernel would stay until culled. A random same-origin value is what the check compares.
  if (!/(^|;\s*)_xsrf=/.test(document.cookie)) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    const token = Array.from(bytes, b => b.toString(16).padStart(2, '0')).join('');
    document.cookie = '_xsrf=' + token + '; path=/; SameSite=Strict';
  }
</script>
{%- endblock html_head_js -%}
{%- block notebook_css -%}
{{ super() }}
<style>
  /* d2l-lecture: readable from the back of the room */
  body {
    --jp-content-font-size1: 22px;
    --jp-ui-font-size1: 20px;
    --jp-code-font-size: 20px;
    --jp-widgets-font-size: 20px;
    --jp-widgets-inline-height: 40px;
    --jp-widgets-inline-label-width: 180px;
    --jp-widgets-inline-width: 520px;
    --jp-widgets-slider-handle-size: 24px;
  }
  .jp-OutputArea-output table { font-size: 20px; }
  .jp-OutputArea-output td, .jp-OutputArea-output th { padding: 0.3em 0.8em; }
  .jp-OutputArea-output img { max-width: 100%; height: auto; }
  .widget-button { font-size: 20px; min-width: 120px; }
</style>
{%- endblock notebook_css -%}
EOF

export MATPLOTLIBRC=$work/matplotlibrc
export JUPYTER_PATH=$work/share${JUPYTER_PATH:+:$JUPYTER_PATH}
export D2L_EXT_LECTURE=1
# The notebooks import d2l_ext; make the working tree importable even if not pip-installed.
export PYTHONPATH=$repo${PYTHONPATH:+:$PYTHONPATH}

echo "lecture.sh: serving $what at http://$ip:$port/ (Ctrl-C to stop)" >&2
# Not exec, so that the EXIT trap removes $work. voila runs in the background (where it
# ignores SIGINT), and Ctrl-C / SIGTERM / SIGHUP to this script are passed on to it as SIGTERM.
"$python" -m voila "$notebook" \
    --no-browser \
    --port="$port" \
    --Voila.ip="$ip" \
    --Voila.port_retries=0 \
    --template=d2l-lecture \
    --theme=light \
    --strip_sources=True \
    --VoilaConfiguration.extension_denylist=@jupyter-notebook/lab-extension \
    --VoilaConfiguration.extension_denylist=jupyterlab-jupytext \
    --VoilaExecutor.timeout="$cell_timeout" \
    --MappingKernelManager.cull_idle_timeout="$cull_idle" \
    --MappingKernelManager.cull_interval=60 \
    --MappingKernelManager.cull_connected=False \
    "$@" &
voila_pid=$!
forward() { kill -TERM "$voila_pid" 2>/dev/null || true; }
trap forward INT TERM HUP
status=0
wait "$voila_pid" || status=$?
if kill -0 "$voila_pid" 2>/dev/null; then # the wait was cut short by a signal: let voila finish
    status=0
    wait "$voila_pid" || status=$?
fi
exit "$status"
