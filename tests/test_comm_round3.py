"""13.3.2 reader findings (round 3): the profiler's subtraction says what it is (CPU-side time minus the copy's CUDA
time, computed from the numbers as printed) and names no cause; the first-call figure's labels stay inside the axes;
the non_blocking pitfall agrees with the hazard cell (old contents, not 'nothing'); exercise 4's prediction has a
guess slot and its answer (the profile table) sits in the hidden cell."""
import pathlib
from types import SimpleNamespace

import jupytext

from d2l_ext.i18n import using_language

SRC = pathlib.Path(__file__).resolve().parents[1] / 'notebooks/src/13.3.2-Parallel-Computation-and-Communication.py'


def _first_copy(cpu_us: float, cuda_us: float):
    from d2l_ext.results import Measurement
    warm = Measurement('warm', [0.058, 0.057, 0.059, 0.058, 0.058])
    to = SimpleNamespace(name='aten::to', cpu_time_us=cpu_us, cuda_time_us=cuda_us)
    return SimpleNamespace(cold=1.032, warm=warm, profile_cold=[to], profile_warm=[], iters=50, size=4000,
                           reason=None)


def test_profile_subtraction_says_what_it_is_and_names_no_cause():
    from d2l_ext.display import communication as show
    first = _first_copy(1_030_400.0, 57_900.0)  # printed 1.030 and 0.058
    with using_language('en'):
        en = show.first_copy_text(first)
    with using_language('zh'):
        zh = show.first_copy_text(first)
    assert 'CPU time outside the GPU copy' not in en and 'allocating' not in en
    assert '1.030 s - 0.058 s = 0.972 s' in en and 'not spent in the GPU copy' in en
    assert 'does not test what it was spent on' in en
    assert 'GPU 复制之外的 CPU 时间' not in zh and '分配新内存' not in zh
    assert '1.030 秒 - 0.058 秒 = 0.972 秒' in zh and '没有检验' in zh


def test_profile_difference_is_computed_from_the_numbers_as_printed():
    from d2l_ext.display import communication as show
    first = _first_copy(1_030_400.0, 58_400.0)  # raw 0.972 s, printed 1.030 - 0.058 = 0.972; 0.0584 -> 0.058
    with using_language('en'):
        assert '1.030 s - 0.058 s = 0.972 s' in show.first_copy_text(first)
    first = _first_copy(1_030_600.0, 57_600.0)  # raw 0.973, printed 1.031 - 0.058 = 0.973
    with using_language('en'):
        assert '1.031 s - 0.058 s = 0.973 s' in show.first_copy_text(first)
    first = _first_copy(50_000.0, 58_000.0)  # CPU time below the CUDA time: no subtraction, both times only
    with using_language('en'):
        text = show.first_copy_text(first)
    assert ' = ' not in text.splitlines()[-1] and '0.058 s of CUDA time' in text


def test_first_call_labels_stay_inside_the_axes():
    import matplotlib.pyplot as plt

    from d2l_ext.display import communication as show
    from d2l_ext.recorded import load_recordings
    rec = show.newest(load_recordings())
    for lang in ('en', 'zh'):
        with using_language(lang):
            fig = show.plot_first_copy(rec.first_copy, rec=rec)
            ax = fig.axes[0]
            fig.canvas.draw()
            box = ax.get_window_extent()
            for label in ax.texts:
                inside = label.get_window_extent()
                assert box.x0 <= inside.x0 and inside.x1 <= box.x1, (lang, label.get_text())
                # a mark in the right half gets its label on its left, whatever the fonts' widths (the reader's
                # figure had '1.03 s (one timing)' running past the right edge into the legend)
                x, _ = ax.transData.transform(label.xy)
                if x > (box.x0 + box.x1) / 2:
                    assert label.get_ha() == 'right' and inside.x1 <= x, (lang, label.get_text())
            plt.close(fig)


def test_non_blocking_pitfall_says_old_contents_not_absent():
    src = SRC.read_text()
    assert 'is not there until you synchronize' not in src and '同步之前并不存在' not in src
    assert 'a `non_blocking` result is incomplete (it may hold old contents) until you' in src
    assert '同步之前并不完整（可能还是缓冲区原有的内容）' in src


def test_exercise_four_has_a_guess_slot_and_hides_its_answer():
    cells = [c for c in jupytext.read(SRC).cells if c.cell_type == 'code']
    profile = next(c for c in cells if 'profile(activities=activities)' in c.source)
    assert 'my_guess = None' in profile.source and 'profile_guess_text(prof, GPU, my_guess)' in profile.source
    assert '.table(' not in profile.source  # the table answers the prediction: it is in the hidden cell
    hidden = cells[cells.index(profile) + 1]
    assert '.table(' in hidden.source and hidden.metadata['jupyter'] == {'source_hidden': True, 'outputs_hidden': True}
    prose = [c.source for c in jupytext.read(SRC).cells if c.cell_type == 'markdown']
    assert any('write it in `my_guess`' in p for p in prose) and any('把它写进 `my_guess`' in p for p in prose)


def test_profile_guess_text_compares_the_guess_with_the_top_operator():
    from d2l_ext.display import communication as show
    rows = [SimpleNamespace(key='aten::mm', self_cpu_time_total=16.7e3, self_device_time_total=131e3),
            SimpleNamespace(key='aten::copy_', self_cpu_time_total=3.7e3, self_device_time_total=57.9e3),
            SimpleNamespace(key='Memcpy DtoH (Device -> Pinned)', self_cpu_time_total=0, self_device_time_total=9e9)]
    prof = SimpleNamespace(key_averages=lambda: rows)
    for lang in ('en', 'zh'):
        with using_language(lang):
            none = show.profile_guess_text(prof, False, None)
            right = show.profile_guess_text(prof, True, 'aten::mm')
            other = show.profile_guess_text(prof, False, 'aten::copy_')
        assert 'my_guess' in none and 'aten::mm' in right and '0.1310' in right and 'Memcpy' not in right
        assert 'aten::mm' in other and '0.0167' in other
    with using_language('en'):
        assert 'as you predicted' in show.profile_guess_text(prof, True, 'aten::mm')
        assert 'not the one you predicted' in show.profile_guess_text(prof, False, 'aten::copy_')


def test_the_traced_run_is_placed_against_the_repeats_as_printed():
    from d2l_ext.display.communication_overlap import _traced_text
    from d2l_ext.i18n import using_language
    with using_language('en'):  # the GPU edition: 0.02782 against repeats up to 0.02778, both printed 0.0278
        text = _traced_text(0.02782, [0.02750, 0.02760, 0.02778], [0.025, 0.026], 0.0279)
    assert 'above every' not in text and '0.0278 s' in text
