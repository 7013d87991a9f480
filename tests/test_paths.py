"""Output paths are tried before the work, never replace anything but a regular file, and never lose a result."""
import os

import pytest

from d2l_ext import paths
from d2l_ext.errors import UsageError


def test_a_new_name_in_a_writable_folder_is_accepted_and_nothing_is_left_behind(tmp_path):
    assert paths.check_output_file(tmp_path / 'r.json') == tmp_path / 'r.json'
    assert os.listdir(tmp_path) == []  # the probe file was removed


def test_an_existing_file_needs_force_and_is_left_unchanged_by_the_check(tmp_path):
    f = tmp_path / 'r.json'
    f.write_text('old')
    with pytest.raises(UsageError, match='--force'):
        paths.check_output_file(f)
    assert paths.check_output_file(f, force=True) == f.resolve() and f.read_text() == 'old'


def test_a_link_to_a_regular_file_writes_the_file_it_names(tmp_path):
    (tmp_path / 'real.json').write_text('old')
    (tmp_path / 'link.json').symlink_to(tmp_path / 'real.json')
    assert paths.check_output_file(tmp_path / 'link.json', force=True) == (tmp_path / 'real.json').resolve()


@pytest.mark.parametrize('force', [False, True])
def test_a_pipe_or_a_link_to_one_is_never_replaced(tmp_path, force):
    os.mkfifo(tmp_path / 'pipe')
    (tmp_path / 'link').symlink_to(tmp_path / 'pipe')
    for target in ('pipe', 'link'):
        with pytest.raises(UsageError, match='is not a regular file'):
            paths.check_output_file(tmp_path / target, force=force)


def test_a_link_to_nothing_a_folder_and_a_path_under_a_file_are_refused(tmp_path):
    (tmp_path / 'dangling').symlink_to(tmp_path / 'nowhere')
    (tmp_path / 'file').write_text('x')
    with pytest.raises(UsageError, match='link to nothing'):
        paths.check_output_file(tmp_path / 'dangling')
    with pytest.raises(UsageError, match='is a folder'):
        paths.check_output_file(tmp_path)
    with pytest.raises(UsageError, match='lies under a file'):
        paths.check_output_file(tmp_path / 'file' / 'r.json')
    with pytest.raises(UsageError, match='does not exist'):
        paths.check_output_file(tmp_path / 'missing' / 'r.json')


def test_a_trace_folder_is_created_and_tried_and_a_file_is_not_a_folder(tmp_path):
    assert paths.try_folder(tmp_path / 'a' / 'b', '--trace-dir', create=True).is_dir()
    assert os.listdir(tmp_path / 'a' / 'b') == []
    (tmp_path / 'file').write_text('x')
    with pytest.raises(UsageError, match='is a file, not a folder: choose another --trace-dir'):
        paths.try_folder(tmp_path / 'file', '--trace-dir', create=True)
    with pytest.raises(UsageError, match='lies under a file'):
        paths.try_folder(tmp_path / 'file' / 'sub', '--trace-dir', create=True)


@pytest.mark.parametrize('folder', ['/sys/kernel', '/proc'])
def test_a_system_folder_fails_the_try_even_where_os_access_says_yes(folder):
    if not os.path.isdir(folder):
        pytest.skip('no such system folder here')
    with pytest.raises(UsageError, match='cannot write into'):
        paths.try_folder(folder, '--out')


def test_save_text_replaces_through_a_part_file_and_leaves_nothing_else(tmp_path):
    f = tmp_path / 'r.json'
    f.write_text('old')
    assert paths.save_text(f, 'new') == (f, None)
    assert f.read_text() == 'new' and os.listdir(tmp_path) == ['r.json']


def test_save_text_falls_back_to_the_current_folder_with_a_new_name(tmp_path, monkeypatch):
    here = tmp_path / 'here'
    here.mkdir()
    (here / 'r.json').write_text('someone else')
    monkeypatch.chdir(here)
    saved, reason = paths.save_text(tmp_path / 'gone' / 'r.json', 'result')
    assert saved == here / 'r-1.json' and saved.read_text() == 'result' and reason
    assert (here / 'r.json').read_text() == 'someone else'  # never over anything


def test_save_text_goes_to_the_temp_folder_when_the_current_one_fails_too(tmp_path, monkeypatch):
    monkeypatch.setattr(paths.Path, 'cwd', classmethod(lambda cls: tmp_path / 'no-cwd'))
    monkeypatch.setattr(paths.tempfile, 'gettempdir', lambda: str(tmp_path))
    saved, _ = paths.save_text(tmp_path / 'gone' / 'r.json', 'result')
    assert saved == tmp_path / 'r.json' and saved.read_text() == 'result'


def test_save_text_never_writes_over_a_pipe_that_appeared_meanwhile(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    os.mkfifo(tmp_path / 'r.json')
    saved, reason = paths.save_text(tmp_path / 'r.json', 'result')
    assert (tmp_path / 'r.json').is_fifo() and saved == tmp_path / 'r-1.json' and 'regular' in reason


def test_an_interrupt_while_writing_keeps_the_old_file_whole_and_leaves_no_part_file(tmp_path, monkeypatch):
    f = tmp_path / 'r.json'
    f.write_text('old')

    def interrupted(src, dst):
        raise KeyboardInterrupt
    monkeypatch.setattr(paths.os, 'replace', interrupted)
    with pytest.raises(KeyboardInterrupt):
        paths.save_text(f, 'new')
    assert f.read_text() == 'old' and os.listdir(tmp_path) == ['r.json']


def test_missing_files_names_the_traces_that_are_not_there(tmp_path):
    (tmp_path / 'a.json').write_text('{}')
    assert paths.missing_files([tmp_path / 'a.json', tmp_path / 'b.json']) == [str(tmp_path / 'b.json')]
