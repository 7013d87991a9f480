"""Recordings: one format, one per GPU kind, typed; CPU recordings are never GPU evidence; paths checked first."""
import json

from d2l_ext.recorded import FOLDER, Recording, from_json, load_recordings, newest


def test_shipped_gpu_recordings_load_typed():
    recs = load_recordings()
    assert recs and all(r.gpu for r in recs)
    for r in recs:
        assert r.label().startswith('recorded on NVIDIA')
        p = r.parallel[0]
        assert p.expectation.rule == 'separate' and p.expected == max(m.median for m in p.lane_times)
        assert len(r.comm[0].rows) in (4, 5) and r.timelines[0].events  # 5: with a reused pageable row
        json.dumps(r.to_json())


def test_cpu_recording_is_labelled_and_left_out_of_gpu_evidence(tmp_path):
    old = json.loads(sorted(FOLDER.glob('*.json'))[0].read_text())
    old['machine'] = dict(old['machine'], gpus=[])
    (tmp_path / 'cpu.json').write_text(json.dumps(old))
    assert load_recordings(folder=tmp_path) == []
    (rec,) = load_recordings(gpu_only=False, folder=tmp_path)
    assert not rec.gpu and rec.label().startswith('CPU recording (no GPU)')


def test_new_format_round_trips():
    rec = load_recordings()[0]
    again = from_json(json.loads(json.dumps(rec.to_json())))
    assert isinstance(again, Recording) and again.parallel[0].together == rec.parallel[0].together


def test_every_shipped_file_is_in_the_one_current_format_and_one_per_gpu_kind():
    import dataclasses
    fields = {f.name for f in dataclasses.fields(Recording)} - {'path'}
    kinds = []
    for path in sorted(FOLDER.glob('*.json')):
        data = json.loads(path.read_text())
        assert set(data) == fields, path.name
        assert all({'expectation', 'expected', 'lane_times'} <= set(p) for p in data['parallel']), path.name
        kinds.append(tuple(data['machine']['gpus']))
    assert len(kinds) == len(set(kinds)), 'keep only the newest recording of each GPU kind'


def test_newest_is_the_latest_date():
    recs = load_recordings()
    assert newest(recs).machine['date'] == max(r.machine['date'] for r in recs)
    assert newest([]) is None


def test_recorded_titles_come_from_the_recording():
    from d2l_ext.display.parallel_recorded import recorded_answer, recorded_figure
    from d2l_ext.i18n import using_language
    rec = newest()
    with using_language('en'):
        fig = recorded_figure(rec, max_bars=200)
        answer = recorded_answer(rec)
    assert answer.count('\n') == 0 and answer.startswith('Worked answer: ')  # one line; the counts in the rows
    top = fig.axes[0].get_title(loc='left').replace('\n', ' ')
    p, tl = rec.parallel[0], rec.timelines[0]
    rows = ' '.join(x.get_text() for x in fig.axes[0].get_yticklabels())
    for k in p.iters:
        assert f'{k} products' in rows
    assert '\n' not in fig.axes[1].get_title(loc='left')  # one line: which run; a merged lane says so in its row
    lanes = ' '.join(x.get_text() for x in fig.axes[1].get_yticklabels())
    assert rec.machine['date'][:10] in top and rec.machine['gpus'][0] in top
    assert ('(each too short to draw)' in lanes) == any(k > 200 for k in tl.iters)


def test_recorded_figures_have_no_english_in_chinese(monkeypatch):
    from d2l_ext.display import fonts, style
    from d2l_ext.display.parallel_recorded import recorded_figure
    from d2l_ext.i18n import using_language
    for module in (fonts, style):  # draw in Chinese even where no CJK font is installed (glyphs go missing)
        monkeypatch.setattr(module, 'cjk_font', lambda: 'DejaVu Sans')
    with using_language('zh'):
        fig = recorded_figure(newest())
    labels = [t.get_text().split('\n')[0] for ax in fig.axes for t in ax.get_yticklabels()]
    assert labels and not any('cores' in x or 'thread' in x for x in labels), labels
