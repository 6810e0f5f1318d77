"""64 concurrent readers doing random stats and reads over a library of 2,000 photos for a bounded
time: no errors, no duplicate renders, every byte equal to a single-threaded read, bounded RSS."""
import hashlib
import os
import random
import threading
import time

from harness import QUICK, Mount, Scratch, TESTDATA, rss_kib

SMALL_PHOTOS = ["cameras/Canon_40D_gimp_resized.jpg", "cameras/Olympus_C2040Z_exif_dims_mismatch.jpg",
                "cameras/Sony_Cybershot_3.jpg", "cameras/Samsung_GT-I9000_Galaxy_S.jpg", "cameras/Casio_EX-S1.jpg",
                "malformed/grayscale.jpg", "malformed/restarts.jpg", "cameras/Olympus_C750UZ_progressive.jpg"]
READERS = 64
RSS_LIMIT_MIB = 256


def library(scratch, photos=2000, albums=40):
    source = scratch.sub("source")
    contents = []
    for photo in SMALL_PHOTOS:
        with open(os.path.join(TESTDATA, photo), "rb") as f:
            contents.append(f.read())
    for index in range(photos):
        folder = os.path.join(source, f"Album{index % albums:02d}")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, f"IMG_{index:05d}.jpg"), "wb") as f:
            f.write(contents[index % len(contents)] + f"#{index}".encode())  # unique bytes after EOI
    return source


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))] if ordered else 0.0


def check(checks):
    scratch = Scratch("load")
    problems = []
    seconds = 20 if QUICK else 60
    try:
        source = library(scratch)
        mountpoint = scratch.sub("mnt")
        mount = Mount(source, mountpoint, f"cache={scratch.path}/cache.sqlite")
        try:
            groups = os.path.join(mountpoint, "groups")
            assets = [os.path.join(groups, album, asset) for album in sorted(os.listdir(groups))
                      for asset in sorted(os.listdir(os.path.join(groups, album))) if asset != "thumbnail.jpg"]
            lock = threading.Lock()
            seen = {}           # path -> sha256 of the first full read
            touched = set()     # renditions stat'ed or read
            errors = []
            cached_latencies = []
            requests = [0]
            stop = time.time() + seconds

            def reader(seed):
                rng = random.Random(seed)
                while time.time() < stop:
                    asset = rng.choice(assets[: len(assets) // 4] if rng.random() < 0.7 else assets)  # some hot spots
                    kind = rng.choice(("thumbnail.jpg", "fullscreen.jpg", "original.jpg"))
                    path = os.path.join(asset, kind)
                    started = time.perf_counter()
                    try:
                        if rng.random() < 0.3:
                            os.stat(path)
                            digest = None
                        else:
                            with open(path, "rb") as f:
                                data = f.read()
                            if len(data) != os.stat(path).st_size:
                                raise OSError(f"short read: {len(data)} bytes")
                            digest = hashlib.sha256(data).hexdigest()
                    except OSError as error:
                        with lock:
                            errors.append(f"{path}: {error}")
                        continue
                    elapsed = time.perf_counter() - started
                    with lock:
                        requests[0] += 1
                        if kind != "original.jpg":
                            touched.add(path)
                        if digest is not None:
                            if path in seen:
                                cached_latencies.append(elapsed)
                                if seen[path] != digest:
                                    errors.append(f"{path}: bytes differ between reads")
                            else:
                                seen[path] = digest

            threads = [threading.Thread(target=reader, args=(seed,)) for seed in range(READERS)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            stats = mount.stats()
            peak = rss_kib(mount.pid) / 1024
            # Every byte read equals a single-threaded read of the same file.
            for path, digest in seen.items():
                with open(path, "rb") as f:
                    if hashlib.sha256(f.read()).hexdigest() != digest:
                        problems.append(f"{path}: differs from a single-threaded read")
            # Latency of cached reads from one reader alone (the 64 Python readers above share one GIL).
            alone = []
            for path in list(seen)[:500]:
                started = time.perf_counter()
                with open(path, "rb") as f:
                    f.read()
                alone.append(time.perf_counter() - started)
            problems += errors[:10]
            if stats["renders"] > len(touched):
                problems.append(f"{stats['renders']} renders for {len(touched)} distinct renditions touched")
            if peak > RSS_LIMIT_MIB:
                problems.append(f"daemon peak RSS {peak:.0f} MiB > {RSS_LIMIT_MIB} MiB")
            checks.figure(
                f"load: {READERS} readers x {seconds} s over {len(assets)} photos: {requests[0]} requests "
                f"({requests[0] / seconds:.0f}/s), {len(errors)} errors, {stats['renders']} renders for {len(touched)} renditions touched, "
                f"{len(seen)} files verified; cached reads p50 {percentile(cached_latencies, 0.5) * 1000:.2f} ms, "
                f"p99 {percentile(cached_latencies, 0.99) * 1000:.2f} ms under load, {percentile(alone, 0.5) * 1000:.3f} / "
                f"{percentile(alone, 0.99) * 1000:.3f} ms from one reader alone; daemon peak RSS {peak:.0f} MiB")
        finally:
            mount.close()
    finally:
        scratch.close()
    return problems
