/// `assetfs manual`: the manual page assetfs(1) in roff, made from what `--help` is made of (the
/// synopsis, the layout, the flags, `MountOption.all`, the signals) and each command's usage, so
/// `man assetfs` and `--help` cannot disagree. `mount-scripts/bootstrap` installs it.
enum ManualPage {
    static let usage = """
        usage: assetfs manual
          Prints the manual page assetfs(1) in roff: man -l <(assetfs manual)
        """

    static func text(_ declarations: [MountOption] = MountOption.all) -> String {
        var page = [".TH ASSETFS 1 \"\" \"\(escaped(AssetFSCommand.version))\" \"User Commands\"",
                    ".SH NAME",
                    "assetfs \\- a photo and video folder shown read-only as albums of ready-made renditions (FUSE)",
                    ".SH SYNOPSIS"]
        page += preformatted(Help.synopsis.replacingOccurrences(of: "usage: ", with: "       "))
        page += [".SH DESCRIPTION"] + preformatted(Help.layout) + [".PP"] + paragraph(Help.oneMountPerCache)
        page += [".SH OPTIONS"] + tagged(Help.flagLines)
        page += [".SS Mount options (\\-o OPT[,OPT...])"]
        for option in declarations {
            let value = option.placeholder.map { "=\\fI" + escaped($0) + "\\fR" } ?? ""
            page += [".TP", "\\fB" + escaped(option.name) + "\\fR" + value] + paragraph(option.description)
        }
        page += tagged(Help.fuseOptionLines)
        page += [".SH COMMANDS"]
        for command in Help.subcommands {
            page += [".SS " + command] + preformatted(Help.usage(of: command))
        }
        page += [".SH SIGNALS"] + tagged(Help.signalLines)
        page += [".SH FILES"] + tagged(files)
        page += [".SH EXAMPLES"] + preformatted(examples)
        page += [".SH SEE ALSO", "mount.fuse3(8), fusermount3(1), fstab(5), systemd.unit(5)"]
        return page.joined(separator: "\n") + "\n"
    }

    static let files = [
        "  ~/.cache/assetfs/<source>-<hash>.sqlite  the cache of renditions ($XDG_CACHE_HOME/assetfs/ where it is set; -o cache=FILE picks another), with its -wal and -shm files; <source> is SOURCE's folder name, <hash> a hash of its real path",
        "  <cache>.catalog.sqlite  the catalog: the stored tree of SOURCE and the properties read from its files (-o cache=c3.sqlite gives c3.catalog.sqlite)",
        "  <cache>.catalog.sqlite-commits  the count of the catalog's commits, mapped by every process that opens it: what tells a mount that rows it read are still current",
        "  <cache>.catalog.lock  held by the mount of that catalog, with its pid and mountpoint: one mount per cache",
        "  $XDG_STATE_HOME/assetfs/assetfs.log  the log of a mount in the background where nothing listens on /dev/log (else ~/.local/state/assetfs/assetfs.log, and without HOME /var/log/assetfs/assetfs.log); -o log=FILE picks the file; SIGHUP reopens it",
        "  /etc/fstab  a line of type fuse.assetfs mounts SOURCE at boot (see EXAMPLES)",
        "  /etc/fuse.conf  user_allow_other there lets a mount not made by root take -o allow_other",
        "  ~/.config/systemd/user/assetfs@.service  the systemd user unit (a copy of mount-scripts/assetfs@.service): assetfs@NAME mounts ~/NAME on ~/Assets/NAME",
        "  ~/.cache/thumbnails/  the desktop's thumbnails ($XDG_CACHE_HOME/thumbnails/), filled by assetfs thumbnails",
    ]

    static let examples = """
        Mount, browse, unmount:
          assetfs -o cache_size=2G ~/Pictures /mnt/assets
          feh /mnt/assets/groups/*/thumbnail.jpg
          fusermount3 -u /mnt/assets

        Render every thumbnail ahead, then copy them (a view renders only its own size):
          assetfs warm ~/Pictures
          rsync -a /mnt/assets/thumbnails/ /srv/gallery/thumbs/

        At boot, from /etc/fstab (mount.fuse3 finds /usr/local/bin/assetfs), then mount /mnt/assets:
          /home/me/Pictures  /mnt/assets  fuse.assetfs  cache_size=2G,allow_other,nofail  0 0

        The same with its cache and its log in files of your choosing (the log file's folder must exist):
          /home/me/Pictures  /mnt/assets  fuse.assetfs  cache=/var/cache/assetfs/pictures.sqlite,log=/var/log/assetfs-pictures.log,allow_other,nofail  0 0

        As a systemd user unit, no root (mount-scripts/assetfs@.service: ~/NAME on ~/Assets/NAME):
          cp mount-scripts/assetfs@.service ~/.config/systemd/user/
          systemctl --user daemon-reload
          systemctl --user enable --now assetfs@Pictures
          journalctl --user -u assetfs@Pictures
          loginctl enable-linger "$USER"

        Icons for file managers, what is not shown and why:
          assetfs thumbnails /mnt/assets
          assetfs skipped ~/Pictures
          assetfs broken /mnt/assets
          assetfs locate ~/Pictures/Holiday/IMG_2041.jpg
        """

    /// Lines shown as they are (no filling, no hyphenation).
    static func preformatted(_ text: String) -> [String] {
        [".nf"] + text.split(separator: "\n", omittingEmptySubsequences: false).map { escaped(String($0)) } + [".fi"]
    }

    /// Text the formatter fills into one paragraph.
    static func paragraph(_ text: String) -> [String] {
        [escaped(text.split(whereSeparator: \.isNewline).joined(separator: " "))]
    }

    /// Lines of `--help`'s two columns (a tag, two spaces or more, its text; a line indented past
    /// the tags continues the text above) as tagged paragraphs; a line without a tag stands alone.
    static func tagged(_ lines: [String]) -> [String] {
        var result: [String] = []
        for line in lines {
            let content = line.drop { $0 == " " }
            if line.count - content.count >= 20 {
                result.append(escaped(String(content)))
            } else if let gap = content.firstRange(of: "  ") {
                let text = content[gap.upperBound...].drop { $0 == " " }
                result += [".TP", "\\fB" + escaped(String(content[..<gap.lowerBound])) + "\\fR", escaped(String(text))]
            } else {
                result += [".PP", escaped(String(content))]
            }
        }
        return result
    }

    /// `text` safe in roff: backslashes and hyphens escaped, a leading `.` or `'` made literal.
    static func escaped(_ text: String) -> String {
        let body = text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
        return body.hasPrefix(".") || body.hasPrefix("'") ? "\\&" + body : body
    }
}
