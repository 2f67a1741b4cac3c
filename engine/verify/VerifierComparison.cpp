#include "engine/verify/VerifierDetail.h"

#include <QDateTime>

namespace md::verify_detail {

namespace {

QString plural(qint64 n, const char *word)
{
    return QStringLiteral("%1 %2%3").arg(n).arg(QLatin1String(word)).arg(n == 1 ? QString() : QStringLiteral("s"));
}

} // namespace

PartitionComparison::PartitionComparison(const MirrorJobSpec &spec, const VerifyOptions &options,
                                         PartitionReader &source, PartitionReader &target)
    : m_ignoredHeader(spec.originHeader.trimmed().toUtf8()), m_spec(spec), m_options(options), m_source(source),
      m_target(target)
{
}

std::optional<PartitionVerdict> PartitionComparison::run(const PartitionJob &job, QString *error)
{
    Range r;
    if (!m_source.watermarks(job.sourceTopic, job.partition, &r.srcLow, &r.srcHigh, error) ||
        !m_target.watermarks(job.targetTopic, job.partition, &r.tgtLow, &r.tgtHigh, error))
        return std::nullopt;

    r.from = r.srcLow;
    if (m_spec.start == StartPosition::Timestamp && m_spec.startTimestamp.isValid()) {
        qint64 offset = -1;
        if (!m_source.offsetForTime(job.sourceTopic, job.partition, m_spec.startTimestamp.toMSecsSinceEpoch(), &offset,
                                    error))
            return std::nullopt;
        r.from = offset < 0 ? r.srcHigh : std::max(offset, r.srcLow);
    } else if (m_spec.start == StartPosition::Latest) {
        // Where the job started is not recorded: the target's first record marks it.
        r.aligned = false;
    }

    // A log whose start moved (retention, DeleteRecords) no longer holds the
    // first records of the mirrored range: only the range both sides still
    // hold is compared. Which side lost more is tried first.
    const bool targetTrimmed = r.aligned && r.tgtLow > 0;
    const bool sourceTrimmed = r.aligned && r.srcLow > 0 && r.from == r.srcLow;
    QList<Anchor> anchors;
    if (targetTrimmed && sourceTrimmed)
        anchors = r.tgtLow >= r.srcLow ? QList<Anchor>{Anchor::TargetStart, Anchor::SourceStart}
                                       : QList<Anchor>{Anchor::SourceStart, Anchor::TargetStart};
    else if (targetTrimmed)
        anchors = {Anchor::TargetStart};
    else if (sourceTrimmed)
        anchors = {Anchor::SourceStart};
    else
        anchors = {Anchor::None};

    std::optional<Attempt> first;
    for (const Anchor anchor : anchors) {
        std::optional<Attempt> a = compare(job, r, anchor, error);
        if (!a)
            return std::nullopt;
        if (a->anchored)
            return std::move(a->verdict);
        if (!first)
            first = std::move(a);
    }
    return std::move(first->verdict);
}

std::optional<PartitionComparison::Attempt> PartitionComparison::compare(const PartitionJob &job, const Range &r,
                                                                         Anchor anchor, QString *error)
{
    Attempt attempt;
    PartitionVerdict &v = attempt.verdict;
    v.sourceTopic = job.sourceTopic;
    v.targetTopic = job.targetTopic;
    v.partition = job.partition;
    v.sourceSkipped = r.from - r.srcLow; // offsets, close to records: those before are never read
    bool aligned = r.aligned;

    if (QString e = m_source.start(job.sourceTopic, job.partition, r.from, r.srcHigh); !e.isEmpty()) {
        *error = e;
        return std::nullopt;
    }
    if (QString e = m_target.start(job.targetTopic, job.partition, r.tgtLow, r.tgtHigh); !e.isEmpty()) {
        *error = e;
        return std::nullopt;
    }

    QCryptographicHash sourceSha(QCryptographicHash::Sha256);
    QCryptographicHash targetSha(QCryptographicHash::Sha256);
    SourceWindow window(m_options.replayWindow);
    bool sourceDone = false;
    bool digestSource = true;
    MessagePtr lastSource; // the record readSource read last

    // Reads one source record into the window; false at the end of the range.
    auto readSource = [&](bool *failed) -> bool {
        if (sourceDone)
            return false;
        MessagePtr m;
        switch (m_source.next(&m, error)) {
        case PartitionReader::Next::Failed: *failed = true; return false;
        case PartitionReader::Next::End: sourceDone = true; return false;
        case PartitionReader::Next::Record: break;
        }
        window.push(m->offset, fingerprint(m.get(), m_ignoredHeader));
        if (digestSource)
            addToDigest(sourceSha, m.get(), m_ignoredHeader);
        lastSource = std::move(m);
        return true;
    };

    qint64 expected = 0; // position in the source range the next target record should equal
    qint64 copied = 0;   // positions [0, copied) have been seen on the target at least once
    qint64 trimmed = 0;  // positions [0, trimmed) are gone from the target's log (not compared)
    bool different = false;
    qint64 lastTargetOffset = r.tgtLow - 1;
    MessagePtr pending; // a target record read while anchoring, compared first

    auto differs = [&](qint64 sourceOffset, qint64 targetOffset, const QString &what) {
        different = true;
        v.sourceOffset = sourceOffset;
        v.targetOffset = targetOffset;
        v.difference = what;
    };

    if (anchor == Anchor::TargetStart) {
        // The target's first record is somewhere in the source range; the
        // source records before it are what the target's log start removed.
        // The target removed r.tgtLow offsets, so at most that many records:
        // more source records before its first one were never copied.
        const auto next = m_target.next(&pending, error);
        if (next == PartitionReader::Next::Failed)
            return std::nullopt;
        const qint64 limit = r.tgtLow + kMissingLookahead;
        const Fingerprint first = pending ? fingerprint(pending.get(), m_ignoredHeader) : Fingerprint{};
        digestSource = false;
        TrimmedRecords removed;
        bool found = false;
        while (window.size() <= limit) {
            bool failed = false;
            if (!readSource(&failed)) {
                if (failed)
                    return std::nullopt;
                break;
            }
            if (pending && window.at(window.size() - 1)->second == first) {
                found = true;
                addToDigest(sourceSha, lastSource.get(), m_ignoredHeader);
                break;
            }
            removed.add(lastSource.get());
        }
        digestSource = true;
        const qint64 before = found ? window.size() - 1 : window.size();
        if (!found && (pending || !sourceDone)) {
            // Not an anchor: the target's first record is not where trimming could have left it.
            attempt.anchored = false;
            if (pending) {
                differs(window.at(0) ? window.at(0)->first : -1, pending->offset,
                        QStringLiteral("the target's first record (its log starts at %1) is not among the first %2 of "
                                       "the source range")
                            .arg(r.tgtLow)
                            .arg(plural(window.size(), "record")));
            } else {
                differs(window.at(0) ? window.at(0)->first : -1, r.tgtLow,
                        QStringLiteral("missing on the target: the target is empty from its log start %1, and the "
                                       "source range holds more than %2 records")
                            .arg(r.tgtLow)
                            .arg(limit));
            }
            v.status = PartitionVerdict::Status::Different;
            return attempt;
        }
        if (before > r.tgtLow) {
            const auto *firstUnexplained = window.at(r.tgtLow);
            differs(firstUnexplained ? firstUnexplained->first : -1, pending ? pending->offset : r.tgtLow,
                    QStringLiteral("missing on the target: %1 source records before the target's first record, "
                                   "and its log start (offset %2) accounts for at most %2 of them")
                        .arg(before)
                        .arg(r.tgtLow));
        } else if (before > 0) {
            trimmed = before;
            expected = copied = before;
            v.trimmedFromTarget = before;
            v.trimNote = trimExplanation(QStringLiteral("target"), r.tgtLow, m_target.topicConfigs(job.targetTopic),
                                         removed, QDateTime::currentMSecsSinceEpoch()) +
                         QStringLiteral("; source offsets %1 to %2 (%3) not compared")
                             .arg(removed.firstOffset)
                             .arg(removed.lastOffset)
                             .arg(plural(before, "record"));
        }
    } else if (anchor == Anchor::SourceStart) {
        // The source's first record is somewhere on the target; the target
        // records before it are copies of what the source's log start removed
        // (at most r.srcLow of them, replays aside).
        bool failed = false;
        if (!readSource(&failed) && failed)
            return std::nullopt;
        const auto *s0 = window.at(0);
        const qint64 limit = r.srcLow + kMissingLookahead;
        TrimmedRecords removed;
        bool found = false;
        while (removed.count <= limit) {
            MessagePtr t;
            const auto next = m_target.next(&t, error);
            if (next == PartitionReader::Next::Failed)
                return std::nullopt;
            if (next == PartitionReader::Next::End)
                break;
            if (s0 && fingerprint(t.get(), m_ignoredHeader) == s0->second) {
                pending = std::move(t);
                found = true;
                break;
            }
            lastTargetOffset = t->offset;
            removed.add(t.get());
        }
        if (!found && s0 && removed.count > 0) {
            attempt.anchored = false;
            differs(s0->first, r.tgtLow,
                    QStringLiteral("the source's first record (its log starts at %1) is not among the first %2 on "
                                   "the target")
                        .arg(r.srcLow)
                        .arg(plural(removed.count, "record")));
            v.status = PartitionVerdict::Status::Different;
            return attempt;
        }
        if (removed.count > r.srcLow) {
            differs(s0 ? s0->first : -1, removed.firstOffset,
                    QStringLiteral("extra records on the target: %1 before the source's first record, and the "
                                   "source's log start (offset %2) accounts for at most %2 of them")
                        .arg(removed.count)
                        .arg(r.srcLow));
        } else if (removed.count > 0) {
            v.trimmedFromSource = removed.count;
            v.trimNote = trimExplanation(QStringLiteral("source"), r.srcLow, m_source.topicConfigs(job.sourceTopic),
                                         removed, QDateTime::currentMSecsSinceEpoch()) +
                         QStringLiteral("; target offsets %1 to %2 (%3) not compared")
                             .arg(removed.firstOffset)
                             .arg(removed.lastOffset)
                             .arg(plural(removed.count, "record"));
        }
    }

    while (true) {
        MessagePtr t;
        if (pending) {
            t = std::move(pending);
        } else {
            const auto next = m_target.next(&t, error);
            if (next == PartitionReader::Next::Failed)
                return std::nullopt;
            if (next == PartitionReader::Next::End)
                break;
        }
        ++v.targetCount;
        lastTargetOffset = t->offset;
        if (different)
            continue; // only counting from here on
        const Fingerprint fp = fingerprint(t.get(), m_ignoredHeader);

        if (!aligned) {
            while (true) {
                MessagePtr m;
                const auto got = m_source.next(&m, error);
                if (got == PartitionReader::Next::Failed)
                    return std::nullopt;
                if (got == PartitionReader::Next::End) {
                    sourceDone = true;
                    break;
                }
                if (fingerprint(m.get(), m_ignoredHeader) == fp) {
                    window.push(m->offset, fp);
                    addToDigest(sourceSha, m.get(), m_ignoredHeader);
                    aligned = true;
                    break;
                }
                ++v.sourceSkipped;
            }
            if (!aligned) {
                different = true;
                v.targetOffset = t->offset;
                v.difference = QStringLiteral("the target's first record is not in the source (start: latest)");
                continue;
            }
        }

        bool failed = false;
        if (expected == window.size() && !readSource(&failed) && failed)
            return std::nullopt;
        // A copy: reading further source records may evict the window's oldest entries.
        std::optional<std::pair<qint64, Fingerprint>> want;
        if (const auto *entry = window.at(expected))
            want = *entry;
        qint64 matched = -1;
        if (want && want->second == fp) {
            matched = expected;
        } else if (expected < copied) {
            // Replaying: the replay may end where the first copy ended.
            if (copied == window.size() && !readSource(&failed) && failed)
                return std::nullopt;
            if (const auto *resume = window.at(copied); resume && resume->second == fp)
                matched = copied;
        }
        if (matched < 0) {
            // An at-least-once restart re-sends from an earlier committed offset
            // (also one from before the target's log start).
            if (const qint64 back = window.find(fp); back >= 0 && back < expected)
                matched = back;
        }
        if (matched < 0) {
            different = true;
            v.targetOffset = t->offset;
            if (want) {
                v.sourceOffset = want->first;
                v.difference = describeDifference(want->second, fp);
                // A record the target lacks shows up as the target holding a later source record.
                const qint64 limit = expected + std::min<qint64>(kMissingLookahead, m_options.replayWindow - 1);
                for (qint64 k = expected + 1; k <= limit; ++k) {
                    if (k == window.size() && !readSource(&failed)) {
                        if (failed)
                            return std::nullopt;
                        break;
                    }
                    const auto *entry = window.at(k);
                    if (entry && entry->second == fp) {
                        const auto *last = window.at(k - 1);
                        v.difference = QStringLiteral("missing on the target: %1 source record%2 (offsets %3 to %4)")
                                           .arg(k - expected)
                                           .arg(k - expected == 1 ? QString() : QStringLiteral("s"))
                                           .arg(want->first)
                                           .arg(last ? last->first : -1);
                        break;
                    }
                }
            } else {
                v.difference = QStringLiteral("extra record on the target (the source range has %1 records)")
                                   .arg(window.size() - trimmed);
            }
            continue;
        }
        if (matched < copied) {
            if (v.duplicates++ == 0) {
                v.firstDuplicateTargetOffset = t->offset;
                if (const auto *original = window.at(matched))
                    v.firstDuplicateSourceOffset = original->first;
            }
        } else {
            copied = matched + 1;
            addToDigest(targetSha, t.get(), m_ignoredHeader);
        }
        expected = matched + 1;
    }

    // The rest of the source range: counted, and the first record the target lacks named.
    qint64 firstMissingOffset = -1;
    if (const auto *entry = window.at(copied))
        firstMissingOffset = entry->first;
    while (aligned) {
        bool failed = false;
        if (!readSource(&failed)) {
            if (failed)
                return std::nullopt;
            break;
        }
        if (firstMissingOffset < 0 && window.size() - 1 == copied)
            firstMissingOffset = window.at(copied)->first;
    }
    v.sourceCount = aligned ? window.size() - trimmed : 0;

    if (!different && aligned && copied < window.size()) {
        different = true;
        v.sourceOffset = firstMissingOffset;
        v.targetOffset = lastTargetOffset + 1;
        v.difference = QStringLiteral("missing on the target (%1 of %2 records copied)")
                           .arg(copied - trimmed)
                           .arg(window.size() - trimmed);
    }
    if (different) {
        v.status = PartitionVerdict::Status::Different;
    } else {
        v.status = v.duplicates ? PartitionVerdict::Status::MatchWithDuplicates : PartitionVerdict::Status::Match;
        v.sourceDigest = sourceSha.result().toHex();
        v.targetDigest = targetSha.result().toHex();
        if (v.sourceDigest != v.targetDigest) {
            // Only possible if two different records shared every 64-bit field hash.
            v.status = PartitionVerdict::Status::Different;
            v.difference = QStringLiteral("SHA-256 digests differ although every record matched");
        }
    }
    if (!aligned)
        v.sourceSkipped = 0;
    return attempt;
}

} // namespace md::verify_detail
