"""Videos as assets, on real mounts of the release binary: a folder of every video fixture beside
photos (plain and Motion Photos) lists exactly the expected assets (an audio-only MP4 and a FIFO
skipped, the scan not held up by the FIFO); every video's posters are JPEGs within their box,
upright, with a stat size equal to the bytes read, the same bytes when read again and after
`assetfs cache clear`; originals are the exact bytes (sha256, and ffprobe over the mount reads the
source's duration and streams); cp and rsync copy the album; `assetfs skipped` and `assetfs stats`
count the videos; a broken video is a broken asset whose original still reads whole; and truncated
copies of videos never kill the daemon (their posters render or fail with EIO).
Tools (Debian packages, installed when missing): ffprobe and ffmpeg (ffmpeg), rsync, djpeg
(libjpeg-turbo-progs), fusermount3 (fuse3)."""
import contextlib
import json
import os
import shutil
import subprocess

from harness import BINARY, ensure_tools, TESTDATA, Mount, Scratch, decodes_cleanly, read_all, sha256, wait_until
from trust import drop_kernel_caches, jpeg_dimensions, outcome, read_from_daemon, timed, unblock_fifo

TOOLS = {"ffprobe": "ffmpeg", "ffmpeg": "ffmpeg", "rsync": "rsync", "djpeg": "libjpeg-turbo-progs", "fusermount3": "fuse3"}
VIDEOS = os.path.join(TESTDATA, "video")
AUDIO_ONLY = "audio_only.mp4"
BROKEN = "malformed_free_box.mp4"
# Recorded upright, stored on their side (display matrix) or tall: posters must be taller than wide.
PORTRAIT = {"iPhone6_gps_rot90", "hdr10_pq_av1_portrait", "iPhone14Pro_dolbyvision_hlg_rot90"}
PHOTOS = ["orientation/Landscape_6.jpg", "orientation/Portrait_1.jpg"] + \
         [f"motion/{name}" for name in sorted(os.listdir(os.path.join(TESTDATA, "motion")))]
SIZES = {"thumbnail.jpg": 256, "fullscreen.jpg": 1920}
# The videos whose truncated copies (first 10 % and 50 %) must not kill the daemon.
TRUNCATED = ["hevc_small.mp4", "iPhone6_gps_rot90.mov"]
READ_TIMEOUT = 60.0


def video_fixtures():
    return sorted(name for name in os.listdir(VIDEOS) if not name.startswith("."))


def stem(name):
    return os.path.splitext(name)[0]


def probe(path):
    """(returncode, {'duration', 'streams'}) from ffprobe's container view; (returncode, None) when it fails."""
    out = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration,nb_streams", "-of", "json", path],
                         capture_output=True, timeout=120)
    if out.returncode != 0:
        return out.returncode, None  # its message names the path: only the failure is compared
    fmt = json.loads(out.stdout).get("format", {})
    return 0, {"duration": fmt.get("duration"), "streams": fmt.get("nb_streams")}


def display_shape(path):
    """(width, height) of the first video stream as shown: sample aspect ratio applied, turned by
    the display matrix's rotation; None when ffprobe finds no video stream."""
    out = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                          "stream=width,height,sample_aspect_ratio:stream_side_data=rotation", "-of", "json", path],
                         capture_output=True, timeout=120)
    streams = json.loads(out.stdout or b"{}").get("streams", []) if out.returncode == 0 else []
    if not streams or not streams[0].get("width"):
        return None
    stream = streams[0]
    width, height = stream["width"], stream["height"]
    num, _, den = (stream.get("sample_aspect_ratio") or "1:1").partition(":")
    if num.isdigit() and den.isdigit() and int(num) > 0 and int(den) > 0:
        width = width * int(num) / int(den)
    rotation = next((int(side["rotation"]) for side in stream.get("side_data_list", []) if "rotation" in side), 0)
    return (height, width) if rotation % 180 else (width, height)


@contextlib.contextmanager
def mounted(source, mountpoint, options):
    mount = Mount(source, mountpoint, options)
    try:
        yield mount
    finally:
        mount.close()


def poster_problems(label, path, box, shape, portrait, expected=None):
    """A poster read through the daemon: a clean JPEG, stat size == bytes read, within `box`,
    the shape of the video (`shape`, as displayed; None: not checked), taller than wide when
    `portrait`, and the same bytes as `expected` when given. Returns (problems, bytes)."""
    finished, (state, data), seconds = timed(read_from_daemon, path, timeout=READ_TIMEOUT)
    if not finished:
        return [f"{label}: read hung for {READ_TIMEOUT:.0f} s"], None
    if state != "ok":
        return [f"{label}: read failed with {state}"], None
    problems = []
    size = outcome(lambda: os.stat(path).st_size)
    if size != ("ok", len(data)):
        problems.append(f"{label}: stat says {size}, read gave {len(data)} bytes")
    if not data.startswith(b"\xff\xd8") or not decodes_cleanly(data):
        problems.append(f"{label}: not a cleanly decoding JPEG ({len(data)} bytes)")
        return problems, data
    dimensions = jpeg_dimensions(data)
    if dimensions is None:
        return problems + [f"{label}: no frame header"], data
    width, height = dimensions
    if max(width, height) > box:
        problems.append(f"{label}: {width}x{height} is larger than {box}")
    if shape is not None:
        shown_w, shown_h = shape
        wanted = min(box, round(max(shown_w, shown_h)))
        if abs(max(width, height) - wanted) > 1:
            problems.append(f"{label}: longest side {max(width, height)}, expected {wanted} (video shown {shown_w:.0f}x{shown_h:.0f})")
        if abs(width / height - shown_w / shown_h) > 0.03 * shown_w / shown_h + 1.0 / height:
            problems.append(f"{label}: {width}x{height} is not the shape of the video as shown ({shown_w:.0f}x{shown_h:.0f}): not upright?")
    if portrait and not height > width:
        problems.append(f"{label}: {width}x{height}, expected a portrait poster")
    if expected is not None and data != expected:
        problems.append(f"{label}: {len(data)} bytes differ from the {len(expected)} read before")
    return problems, data


def tree_problems(label, copy, album_path, names, renditions, originals):
    """The copy of the album at `copy` holds every asset folder with the files the mount lists,
    byte for byte (renditions as read before, originals as the sources)."""
    problems = []
    for asset in names:
        listed = sorted(os.listdir(os.path.join(album_path, asset)))
        copied = sorted(os.listdir(os.path.join(copy, asset))) if os.path.isdir(os.path.join(copy, asset)) else None
        if copied != listed:
            problems.append(f"{label}: {asset} holds {copied}, the mount lists {listed}")
            continue
        for name in listed:
            path = os.path.join(copy, asset, name)
            if name.startswith("original."):
                if sha256(path) != originals[asset]:
                    problems.append(f"{label}: {asset}/{name} is not the source's bytes")
            elif (asset, name) in renditions and read_all(path) != renditions[(asset, name)]:
                problems.append(f"{label}: {asset}/{name} differs from what the mount served")
    return problems


def check(checks):
    ensure_tools(TOOLS)
    scratch = Scratch("videos")
    try:
        problems = mixed_album(checks, scratch)
        problems += truncated_videos(checks, scratch)
        return problems
    finally:
        scratch.close()


def mixed_album(checks, scratch):
    problems = []
    album = scratch.sub("source", "Mixed")
    source = os.path.dirname(album)
    originals = {}  # asset -> sha256 of its source
    sources = {}    # asset -> source path
    for name in video_fixtures():
        shutil.copyfile(os.path.join(VIDEOS, name), os.path.join(album, name))
        originals[stem(name)] = sha256(os.path.join(VIDEOS, name))
        sources[stem(name)] = os.path.join(album, name)
    for photo in PHOTOS:
        name = os.path.basename(photo)
        shutil.copyfile(os.path.join(TESTDATA, photo), os.path.join(album, name))
        originals[stem(name)] = sha256(os.path.join(TESTDATA, photo))
        sources[stem(name)] = os.path.join(album, name)
    fifo = os.path.join(album, "clip.mp4")
    os.mkfifo(fifo)
    videos = [stem(name) for name in video_fixtures() if name != AUDIO_ONLY]
    expected = sorted(videos + [stem(os.path.basename(photo)) for photo in PHOTOS])
    mountpoint = scratch.sub("mnt")
    cache = f"{scratch.path}/cache.sqlite"
    folder = os.path.join(mountpoint, "groups", "Mixed")
    try:
        with mounted(source, mountpoint, f"cache={cache}") as mount:
            # The listing: every video but the audio-only one, every photo, no FIFO.
            listed = sorted(entry for entry in os.listdir(folder) if entry != "thumbnail.jpg")
            if listed != expected:
                problems.append(f"album lists {listed}; expected {expected} "
                                f"(missing {sorted(set(expected) - set(listed))}, extra {sorted(set(listed) - set(expected))})")

            # Posters: read twice, shape and size, the same bytes.
            renditions = {}
            for asset in videos:
                shape = None if asset == stem(BROKEN) else display_shape(sources[asset])
                if shape is None and asset != stem(BROKEN):
                    problems.append(f"{asset}: ffprobe finds no video stream in the source")
                for kind, box in SIZES.items():
                    path = os.path.join(folder, asset, kind)
                    found, data = poster_problems(f"{asset}/{kind}", path, box, shape, asset in PORTRAIT)
                    if data is not None:
                        again, _ = poster_problems(f"{asset}/{kind} (again)", path, box, shape, asset in PORTRAIT, expected=data)
                        found += again
                        renditions[(asset, kind)] = data
                    problems += found
            for asset in expected:
                if asset not in videos:  # the photos' renditions, for the copies' comparison
                    for kind in SIZES:
                        state, data = outcome(read_from_daemon, os.path.join(folder, asset, kind))
                        if state == "ok":
                            renditions[(asset, kind)] = data
                        else:
                            problems.append(f"{asset}/{kind}: read failed with {state}")

            # Originals: exact bytes; ffprobe through the mount sees what it sees in the source.
            for asset in expected:
                extension = os.path.splitext(sources[asset])[1]
                path = os.path.join(folder, asset, "original" + extension)
                state, digest = outcome(sha256, path)
                if state != "ok" or digest != originals[asset]:
                    problems.append(f"{asset}/original{extension}: read {state}, sha256 {'differs' if state == 'ok' else '-'}")
                if asset in videos:
                    through, direct = probe(path), probe(sources[asset])
                    if through != direct:
                        problems.append(f"ffprobe {asset}: through the mount {through}, from the source {direct}")

            # The broken video: a placeholder, the reason as an attribute, the original whole.
            broken = os.path.join(folder, stem(BROKEN))
            reason = wait_until(lambda: outcome(os.getxattr, broken, "user.assetfs.error"), 10)
            if reason[0] != "ok" or not reason[1]:
                problems.append(f"{BROKEN}: no user.assetfs.error on its folder ({reason[0]})")
            if outcome(lambda: os.path.getsize(os.path.join(broken, "original.mp4")))[1] != os.path.getsize(sources[stem(BROKEN)]):
                problems.append(f"{BROKEN}: original.mp4's size is not the source's")
            types = {asset: outcome(os.getxattr, os.path.join(folder, asset), "user.assetfs.type") for asset in videos}
            problems += [f"{asset}: user.assetfs.type {value}" for asset, value in types.items()
                         if value[0] != "ok" or not value[1].startswith(b"video/")]

            # After `assetfs cache clear` beside the mount: the same sizes and bytes.
            cleared = subprocess.run([BINARY, "cache", "clear", "-o", f"cache={cache}", source],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600)
            if cleared.returncode != 0:
                problems.append(f"assetfs cache clear exited {cleared.returncode}: {cleared.stdout.decode(errors='replace')[-300:]}")
            drop_kernel_caches()
            for asset in videos:
                shape = None if asset == stem(BROKEN) else display_shape(sources[asset])
                for kind, box in SIZES.items():
                    if (asset, kind) in renditions:
                        found, _ = poster_problems(f"{asset}/{kind} (after cache clear)", os.path.join(folder, asset, kind), box,
                                                   shape, asset in PORTRAIT, expected=renditions[(asset, kind)])
                        problems += found

            # cp and rsync of the album.
            for tool, command in (("cp", ["cp", "-r", folder, os.path.join(scratch.path, "cp")]),
                                  ("rsync", ["rsync", "-a", folder + "/", os.path.join(scratch.path, "rsync") + "/"])):
                finished, out = _run(command, 600)
                if not finished:
                    problems.append(f"{tool} of the album hung for 600 s")
                    continue
                if out.returncode != 0:
                    problems.append(f"{tool} of the album: exit {out.returncode}: {out.stderr.decode(errors='replace')[-300:]}")
                    continue
                problems += tree_problems(tool, os.path.join(scratch.path, tool), folder, expected, renditions, originals)

            # assetfs skipped: the audio-only MP4 and the FIFO, each with its reason.
            out = subprocess.run([BINARY, "skipped", "-o", f"cache={cache}", source], capture_output=True, timeout=300)
            lines = sorted(line for line in out.stdout.decode(errors="replace").splitlines() if line)
            wanted = sorted([f"audio-only\t{os.path.join(album, AUDIO_ONLY)}", f"special\t{fifo}"])
            if out.returncode != 0 or lines != wanted:
                problems.append(f"assetfs skipped: exit {out.returncode}, {lines}; expected {wanted}")

            stats = mount.stats()
            for key, test, text in (("videos", lambda v: v == len(videos), f"== {len(videos)}"), ("posters", lambda v: v > 0, "> 0"),
                                    ("skipped_audio_only", lambda v: v == 1, "== 1"), ("skipped_special", lambda v: v == 1, "== 1"),
                                    ("broken", lambda v: v >= 1, ">= 1")):
                if not test(stats.get(key, -1)):
                    problems.append(f"stats: {key} is {stats.get(key)}, expected {text}")
            if mount.process.poll() is not None:
                problems.append(f"the daemon exited with {mount.process.returncode}")
            checks.figure(f"videos: {len(videos)} videos and {len(PHOTOS)} photos in one album, {len(renditions)} renditions read "
                          f"twice and after cache clear, stats videos={stats.get('videos')} posters={stats.get('posters')}; "
                          f"{len(problems)} problems")
    except RuntimeError as error:  # the mount never appeared (a scan held up by the FIFO?)
        problems.append(f"mount failed: {str(error)[-300:]}")
    finally:
        unblock_fifo(fifo)
    return problems


def _run(command, timeout):
    try:
        return True, subprocess.run(command, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return False, None


def truncated_videos(checks, scratch):
    """The first 10 % and 50 % of two videos (and of two whose index comes first) beside the whole
    ones and a photo: every poster of a
    cut copy renders (a JPEG) or fails with EIO, nothing hangs, and the daemon serves the rest after."""
    problems = []
    album = scratch.sub("cut-source", "Cut")
    cut = []
    for name in TRUNCATED:
        with open(os.path.join(VIDEOS, name), "rb") as f:
            data = f.read()
        shutil.copyfile(os.path.join(VIDEOS, name), os.path.join(album, name))
        for percent in (10, 50):
            copy = f"{stem(name)}_{percent}pct{os.path.splitext(name)[1]}"
            with open(os.path.join(album, copy), "wb") as f:
                f.write(data[:len(data) * percent // 100])
            cut.append(copy)
    # Cut after an index that comes first (the fixtures above keep theirs at the end, so their
    # cut copies cannot be opened at all): the container opens, the frames' bytes are missing.
    faststart = os.path.join(scratch.path, "hevc_small_faststart.mp4")
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-i", os.path.join(VIDEOS, "hevc_small.mp4"), "-c", "copy",
                    "-movflags", "+faststart", faststart], check=True, capture_output=True, timeout=120)
    for path, percent in ((faststart, 50), (os.path.join(VIDEOS, "h264_ac3.mkv"), 10), (os.path.join(VIDEOS, "h264_ac3.mkv"), 50)):
        with open(path, "rb") as f:
            data = f.read()
        copy = f"{stem(os.path.basename(path))}_{percent}pct{os.path.splitext(path)[1]}"
        with open(os.path.join(album, copy), "wb") as f:
            f.write(data[:len(data) * percent // 100])
        cut.append(copy)
    shutil.copyfile(os.path.join(TESTDATA, PHOTOS[0]), os.path.join(album, os.path.basename(PHOTOS[0])))
    mountpoint = scratch.sub("cut-mnt")
    folder = os.path.join(mountpoint, "groups", "Cut")
    outcomes = []
    with mounted(os.path.dirname(album), mountpoint, f"cache={scratch.path}/cut-cache.sqlite") as mount:
        for name in cut:
            asset = os.path.join(folder, stem(name))
            if not os.path.isdir(asset):
                problems.append(f"{name}: not listed in the album ({sorted(os.listdir(folder))})")
                continue
            for kind in SIZES:
                finished, (state, data), seconds = timed(read_all, os.path.join(asset, kind), timeout=READ_TIMEOUT)
                result = "hung" if not finished else "jpeg" if state == "ok" and data.startswith(b"\xff\xd8") else state
                if result == "jpeg" and outcome(os.getxattr, asset, "user.assetfs.error")[0] == "ok":
                    result = "placeholder"  # a broken asset's poster
                outcomes.append(f"{stem(name)}/{kind}: {result}")
                if result not in ("jpeg", "placeholder", "EIO"):
                    problems.append(f"{name}/{kind}: {result} ({seconds:.1f} s); expected a JPEG or EIO")
            state, digest = outcome(sha256, os.path.join(asset, "original" + os.path.splitext(name)[1]))
            if state != "ok" or digest != sha256(os.path.join(album, name)):
                problems.append(f"{name}: original read {state}, {'bytes differ' if state == 'ok' else ''}")
        if mount.process.poll() is not None:
            problems.append(f"the daemon died with {mount.process.returncode} on truncated videos: {mount.read_log()[-500:]}")
        else:
            for asset in [stem(name) for name in TRUNCATED] + [stem(os.path.basename(PHOTOS[0]))]:
                for kind in SIZES:
                    finished, (state, data), _ = timed(read_from_daemon, os.path.join(folder, asset, kind), timeout=READ_TIMEOUT)
                    if not finished or state != "ok" or not decodes_cleanly(data):
                        problems.append(f"after the truncated videos, {asset}/{kind}: {'hung' if not finished else state}")
    checks.figure(f"truncated videos: {'; '.join(outcomes)}")
    return problems
