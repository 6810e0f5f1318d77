"""A phone dump, as users copy one in: an iPhone export with Live pairs (copied MOV-first and
still-first while mounted, one still deleted afterwards, an `.AAE` edit file), a Google Takeout
folder with full and cut JSON names, WhatsApp, Pixel and Samsung names without dates inside, an
Android clip whose only date is the movie header's UTC time, the shared HLG clip, a truncated MOV
and a video written in two halves with a pause. Everything is made at run time from the fixtures.

What it proves (issue 29): the names a mount shows do not depend on the order the files arrived
(the live mount against a fresh mount of the final tree, names and days alike); a Live pair is one
asset and shares its movie's place and zone; zone-less dates land on the daemon's local day
(TZ=America/Los_Angeles); dates come from file names and every Takeout JSON naming form; the HLG
poster keeps its colours unclipped; stats count what the mount shows, and `assetfs broken` lists
exactly the asset folders that carry `user.assetfs.error`, which names files relative to SOURCE.
Tools: exiftool, ffmpeg, convert (installed when missing)."""
import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import time

from harness import BINARY, TESTDATA, Mount, Scratch, ensure_tools, wait_until

TOOLS = {"exiftool": "libimage-exiftool-perl", "ffmpeg": "ffmpeg", "convert": "imagemagick", "fusermount3": "fuse3"}
ZONE = "America/Los_Angeles"
LIVE_ID = "E905E6C6-C747-4805-942F-9904A0281F02"  # the content identifier of video/iPhone6s_livephoto.mov
STILL = os.path.join(TESTDATA, "formats", "iPhone_XR_irot.heic")
MOVIE = os.path.join(TESTDATA, "video", "iPhone6s_livephoto.mov")
HLG = os.path.join(TESTDATA, "video", "hlg10_1080p.mp4")
LATE_VIDEO = os.path.join(TESTDATA, "video", "hevc_small.mp4")
# Named files without a date inside: (folder, name, the day the name says).
NAMED = [("WhatsApp", "IMG-20240305-WA0002.jpg", "2024-03-05"),
         ("WhatsApp", "VID-20240306-WA0003.mp4", "2024-03-06"),
         ("Pixel", "PXL_20230616_111213456.jpg", "2023-06-16"),
         ("Pixel", "VID_20230909_120000.mp4", "2023-09-09"),
         ("Pixel", "Screenshot_20240101-101010.png", "2024-01-01")]
# Takeout: (photo name, JSON name or None for the cut form, taken as Unix seconds, the local day in ZONE).
TAKEOUT = [("PXL_20230615_101010123.jpg", "PXL_20230615_101010123.jpg.supplemental-metadata.json", 1656936000, "2022-07-04"),
           ("IMG_20220808_080808_with_a_longer_name.jpg", None, 1659946088, "2022-08-08"),
           ("Holiday picture.jpg", "some-other-name.json", 1662638400, "2022-09-08")]


def run(*command, **options):
    return subprocess.run(command, capture_output=True, check=True, timeout=300, **options)


def pixel(path):
    """A point of the picture that only this path's photo has: photos of one colour would be one
    picture, shown once in the days (copies)."""
    index = int(hashlib.md5(os.path.basename(path).encode()).hexdigest(), 16)
    return index % 320, (index // 320) % 240


def plain_jpeg(path, colour="steelblue"):
    """A JPEG with no EXIF at all (no date inside), a picture of its own, and an old mtime."""
    x, y = pixel(path)
    run("convert", "-size", "320x240", f"xc:{colour}", "-fill", "white", "-draw", f"point {x},{y}", "-strip", path)
    os.utime(path, (1_000_000_000, 1_000_000_000))


def plain_video(path, creation_time=None):
    """One second of test picture, its own (a box where only this path's has it); its movie
    header carries `creation_time` (UTC) or no date."""
    metadata = ["-metadata", f"creation_time={creation_time}"] if creation_time else ["-map_metadata", "-1"]
    x, y = pixel(path)
    run("ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=10", "-t", "1",
        "-vf", f"drawbox=x={x}:y={y}:w=8:h=8:color=white:t=fill",
        "-c:v", "libx264", "-pix_fmt", "yuv420p", *metadata, path)
    os.utime(path, (1_000_000_000, 1_000_000_000))


def takeout_json_name(photo):
    """The cut form older Takeouts write: the name before `.json` kept to 46 characters."""
    return (photo + ".supplemental-metadata")[:46] + ".json"


def live_still(path):
    """The shared HEIC as a Live Photo's still: the movie's content identifier, no GPS, no offset."""
    shutil.copyfile(STILL, path)
    run("exiftool", "-q", "-overwrite_original", f"-Apple:MediaGroupUUID={LIVE_ID}", "-gps:all=",
        "-OffsetTime*=", path)


def build_static(source):
    """What is there before the mount: every kind but the files copied while mounted."""
    for folder, name, _ in NAMED:
        os.makedirs(os.path.join(source, folder), exist_ok=True)
        path = os.path.join(source, folder, name)
        if name.endswith(".mp4"):
            plain_video(path)
        elif name.endswith(".png"):
            run("convert", "-size", "320x240", "xc:orange", "-strip", path)
            os.utime(path, (1_000_000_000, 1_000_000_000))
        else:
            plain_jpeg(path)
    samsung = os.path.join(source, "Samsung")
    os.makedirs(samsung)
    plain_video(os.path.join(samsung, "20240112_214001.mp4"), creation_time="2024-01-13T05:40:01Z")
    takeout = os.path.join(source, "Takeout", "Photos from 2022")
    os.makedirs(takeout)
    for photo, json_name, taken, _ in TAKEOUT:
        plain_jpeg(os.path.join(takeout, photo), colour="seagreen")
        sidecar = {"title": photo, "photoTakenTime": {"timestamp": str(taken)},
                   "geoData": {"latitude": 60.3913, "longitude": 5.3221, "altitude": 12.0}}
        with open(os.path.join(takeout, json_name or takeout_json_name(photo)), "w") as f:
            json.dump(sidecar, f)
    iphone = os.path.join(source, "iPhone", "gone-still")
    os.makedirs(iphone)
    live_still(os.path.join(iphone, "IMG_0001.HEIC"))
    shutil.copyfile(MOVIE, os.path.join(iphone, "IMG_0001.MOV"))
    with open(os.path.join(iphone, "IMG_0001.AAE"), "w") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict></dict></plist>\n')
    videos = os.path.join(source, "Videos")
    os.makedirs(videos)
    shutil.copyfile(HLG, os.path.join(videos, "hlg10_1080p.mp4"))
    with open(MOVIE, "rb") as f:
        data = f.read()
    with open(os.path.join(videos, "truncated.mov"), "wb") as f:
        f.write(data[:len(data) // 3])


def copy_while_mounted(source):
    """The Live pairs arrive in both orders, a second apart (a phone sync app, MTP, `cp`), one
    video is written in two halves with a pause, and a still is deleted."""
    for order, folder in ((("MOV", "HEIC"), "mov-first"), (("HEIC", "MOV"), "still-first")):
        album = os.path.join(source, "iPhone", folder)
        os.makedirs(album)
        for kind in order:
            target = os.path.join(album, f"IMG_0020.{kind}")
            if kind == "HEIC":
                live_still(target + ".part")
                os.rename(target + ".part", target)
            else:
                shutil.copyfile(MOVIE, target)
            time.sleep(1.2)
    with open(LATE_VIDEO, "rb") as f:
        data = f.read()
    late = os.path.join(source, "Videos", "late.mp4")
    with open(late, "wb") as f:
        f.write(data[:len(data) // 2])
        f.flush()
        time.sleep(1.5)
        f.write(data[len(data) // 2:])
    os.remove(os.path.join(source, "iPhone", "gone-still", "IMG_0001.HEIC"))


def album(folder):
    """The `groups/` name of a SOURCE folder: nested folders are flattened with a fullwidth solidus."""
    return folder.replace("/", "\uff0f")


def xattr(path, name):
    try:
        return os.getxattr(path, "user.assetfs." + name).decode()
    except OSError:
        return None


def asset_folders(mountpoint):
    """Every asset folder under groups/: its path relative to groups/ -> its sorted children."""
    result = {}
    groups = os.path.join(mountpoint, "groups")
    for album, folders, _ in os.walk(groups):
        for folder in folders:
            path = os.path.join(album, folder)
            if xattr(path, "source") is not None:
                result[os.path.relpath(path, groups)] = sorted(os.listdir(path))
    return result


def days(mountpoint):
    """dates/<year>/<day> -> the sorted asset names in it."""
    result = {}
    dates = os.path.join(mountpoint, "dates")
    for year in sorted(os.listdir(dates)):
        for day in sorted(os.listdir(os.path.join(dates, year))):
            result[day] = sorted(os.listdir(os.path.join(dates, year, day)))
    return result


def shown(mountpoint, cache):
    """What a user sees of the library once every file's properties and content id are read (Live
    pairs are made then, and a copy of a picture leaves the days): the asset folders with their
    files, and the days."""
    catalog = cache[:-len(".sqlite")] + ".catalog.sqlite"

    def ids_pending():
        with sqlite3.connect(f"file:{catalog}?mode=ro", uri=True, timeout=30) as db:
            return db.execute("SELECT count(*) FROM properties WHERE content_id IS NULL").fetchone()[0]

    def settled():  # every file dated and hashed: the shown assets and the Live Photos' hidden movies
        stats = json.loads(os.getxattr(mountpoint, "user.assetfs.stats"))
        dated = sum(value for key, value in stats.items() if key.startswith("dates_"))
        return (stats.get("catalog_complete") == 1 and dated >= stats["assets"] + stats.get("live_photos", 0)
                and ids_pending() == 0)
    wait_until(settled, 60)
    return asset_folders(mountpoint), days(mountpoint)


def clipped_fraction(jpeg_path):
    """The fraction of pixels with a channel at 255 (ImageMagick)."""
    out = run("convert", jpeg_path, "-fx", "max(r,max(g,b)) >= 1.0 ? 1 : 0", "-format", "%[fx:mean]", "info:")
    return float(out.stdout)


def check(checks):
    ensure_tools(TOOLS)
    scratch = Scratch("phone-dump")
    problems = []
    try:
        source = scratch.sub("Pictures")
        build_static(source)
        environment = {**os.environ, "TZ": ZONE}
        mountpoint = scratch.sub("mnt")
        cache = f"{scratch.path}/live.sqlite"
        mount = Mount(source, mountpoint, f"cache={cache}", env=environment)
        try:
            copy_while_mounted(source)
            time.sleep(4)  # the changes and the settling of the late video
            live_folders, live_days = shown(mountpoint, cache)
            problems += what_a_mount_shows(checks, mountpoint, source, cache, live_folders, live_days)
        finally:
            mount.close()
        fresh_point = scratch.sub("mnt-fresh")
        fresh_cache = f"{scratch.path}/fresh.sqlite"
        fresh = Mount(source, fresh_point, f"cache={fresh_cache}", env=environment)
        try:
            fresh_folders, fresh_days = shown(fresh_point, fresh_cache)
        finally:
            fresh.close()
        if live_folders != fresh_folders:
            differ = sorted(k for k in set(live_folders) | set(fresh_folders) if live_folders.get(k) != fresh_folders.get(k))
            problems.append("the live mount and a fresh scan of the same tree differ: "
                            + "; ".join(f"{k}: live {live_folders.get(k)}, fresh {fresh_folders.get(k)}" for k in differ))
        if live_days != fresh_days:
            problems.append(f"days differ: live {live_days}, fresh {fresh_days}")
        checks.figure(f"phone dump: {len(live_folders)} asset folders, {len(live_days)} days, live == fresh: "
                      f"{live_folders == fresh_folders and live_days == fresh_days}")
        return problems
    finally:
        scratch.close()


def what_a_mount_shows(checks, mountpoint, source, cache, folders, days_shown):
    problems = []
    groups = os.path.join(mountpoint, "groups")
    # Live pairs: one asset each, whatever the copy order; the orphaned MOV named as a fresh scan names it.
    for folder in ("mov-first", "still-first"):
        assets = sorted(path for path in folders if path.startswith(album(f"iPhone/{folder}") + "/"))
        if assets != [album(f"iPhone/{folder}") + "/IMG_0020"]:
            problems.append(f"{folder}: asset folders {assets}, expected one IMG_0020")
        elif "motion.mov" not in folders[assets[0]]:
            problems.append(f"{folder}: IMG_0020 holds {folders[assets[0]]}, no motion.mov")
    pair = os.path.join(groups, album("iPhone/still-first"), "IMG_0020")
    location, date = xattr(pair, "location"), xattr(pair, "date") or ""
    if not location:
        problems.append("a Live still without GPS did not take its movie's place")
    if not date.endswith("+01:00"):
        problems.append(f"a Live still without an offset did not take its movie's (+01:00): {date}")
    if [day for day, names in days_shown.items() if not names]:
        problems.append(f"empty days under dates/: {[day for day, names in days_shown.items() if not names]}")
    orphan = sorted(path for path in folders if path.startswith(album("iPhone/gone-still") + "/"))
    if orphan != [album("iPhone/gone-still") + "/IMG_0001"]:
        problems.append(f"the MOV left by a deleted still shows as {orphan}, a fresh scan names it IMG_0001")
    # Dates: names, zone-less headers in the daemon's zone, Takeout JSON in every naming form.
    expected_days = [(f"{folder}/{os.path.splitext(name)[0]}", day, "filename") for folder, name, day in NAMED]
    expected_days.append(("Samsung/20240112_214001", "2024-01-12", "movie-header"))
    expected_days += [(album("Takeout/Photos from 2022") + f"/{os.path.splitext(photo)[0]}", day, "sidecar")
                      for photo, _, _, day in TAKEOUT]
    for path, day, date_source in expected_days:
        asset = os.path.join(groups, path)
        date, said = xattr(asset, "date") or "", xattr(asset, "date_source")
        if not date.startswith(day) or said != date_source:
            problems.append(f"{path}: date {date!r} from {said!r}, expected {day} from {date_source}")
        if date_source == "sidecar" and not xattr(asset, "location"):
            problems.append(f"{path}: no place from its Takeout JSON")
    skipped = subprocess.run([BINARY, "skipped", "-o", f"cache={cache}", source], capture_output=True, timeout=60).stdout.decode()
    if not any(line.startswith("sidecar\t") and line.endswith("IMG_0001.AAE") for line in skipped.splitlines()):
        problems.append(f"IMG_0001.AAE is not skipped as a sidecar: {skipped.strip()[:300]}")
    # The HLG poster: colours tone-mapped, not clipped channel by channel.
    poster = os.path.join(groups, "Videos", "hlg10_1080p", "fullscreen.jpg")
    clipped = clipped_fraction(poster)
    checks.figure(f"HLG poster: {clipped * 100:.2f} % of pixels with a clipped channel")
    if clipped > 0.01:
        problems.append(f"HLG poster: {clipped * 100:.1f} % of pixels have a clipped channel (at most 1 %)")
    # The late video settled whole: a poster, not a placeholder; the truncated MOV is broken, as a video.
    late = os.path.join(groups, "Videos", "late")
    with open(os.path.join(late, "thumbnail.jpg"), "rb") as f:
        f.read()
    if xattr(late, "error"):
        problems.append(f"a video written in two halves is broken: {xattr(late, 'error')}")
    truncated = os.path.join(groups, "Videos", "truncated")
    with open(os.path.join(truncated, "thumbnail.jpg"), "rb") as f:
        f.read()
    error = xattr(truncated, "error") or ""
    if "video" not in error or "image" in error:
        problems.append(f"the truncated MOV's error does not say it is a video: {error!r}")
    if source in error:
        problems.append(f"the error names SOURCE's absolute path: {error!r}")
    # Stats and `assetfs broken`: what the mount shows now.
    for path in folders:  # every rendition tried once, so every broken asset is known
        with open(os.path.join(groups, path, "thumbnail.jpg"), "rb") as f:
            f.read()
    broken = sorted(path for path in folders if xattr(os.path.join(groups, path), "error"))
    stats = json.loads(os.getxattr(mountpoint, "user.assetfs.stats"))
    if stats.get("broken") != len(broken):
        problems.append(f"stats say broken {stats.get('broken')}, {len(broken)} asset folders carry an error: {broken}")
    if stats.get("assets") != len(folders):
        problems.append(f"stats say assets {stats.get('assets')}, the mount shows {len(folders)} asset folders")
    listed = subprocess.run([BINARY, "broken", "-o", f"cache={cache}", mountpoint], capture_output=True, timeout=60)
    lines = sorted(line.split("\t")[-1] for line in listed.stdout.decode().splitlines() if line)
    wanted = sorted(os.path.join("groups", path) for path in broken)
    if lines != wanted:
        problems.append(f"`assetfs broken` lists {lines}, expected {wanted} ({listed.stderr.decode().strip()[:200]})")
    checks.figure(f"phone dump: {len(broken)} broken of {len(folders)} assets; stats {stats}")
    return problems
