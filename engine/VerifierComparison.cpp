#include "VerifierDetail.h"

namespace md::verify_detail {

PartitionComparison::PartitionComparison(const MirrorJobSpec &spec, const VerifyOptions &options,
                                         PartitionReader &source, PartitionReader &target)
    : m_spec(spec)
    , m_options(options)
    , m_source(source)
    , m_target(target)
{
}

std::optional<PartitionVerdict> PartitionComparison::run(const PartitionJob &job, QString *error)
{
    PartitionVerdict v;
    v.sourceTopic = job.sourceTopic;
    v.targetTopic = job.targetTopic;
    v.partition = job.partition;

    qint64 srcLow = 0, srcHigh = 0, tgtLow = 0, tgtHigh = 0;
    if (!m_source.watermarks(job.sourceTopic, job.partition, &srcLow, &srcHigh, error)
        || !m_target.watermarks(job.targetTopic, job.partition, &tgtLow, &tgtHigh, error))
        return std::nullopt;

    qint64 from = srcLow;
    bool aligned = true;
    if (m_spec.start == StartPosition::Timestamp && m_spec.startTimestamp.isValid()) {
        qint64 offset = -1;
        if (!m_source.offsetForTime(job.sourceTopic, job.partition, m_spec.startTimestamp.toMSecsSinceEpoch(),
                                    &offset, error))
            return std::nullopt;
        from = offset < 0 ? srcHigh : std::max(offset, srcLow);
        v.sourceSkipped = from - srcLow; // offsets, close to records: those before are never read
    } else if (m_spec.start == StartPosition::Latest) {
        // Where the job started is not recorded: the target's first record marks it.
        aligned = false;
    }

    if (QString e = m_source.start(job.sourceTopic, job.partition, from, srcHigh); !e.isEmpty()) {
        *error = e;
        return std::nullopt;
    }
    if (QString e = m_target.start(job.targetTopic, job.partition, tgtLow, tgtHigh); !e.isEmpty()) {
        *error = e;
        return std::nullopt;
    }

    QCryptographicHash sourceSha(QCryptographicHash::Sha256);
    QCryptographicHash targetSha(QCryptographicHash::Sha256);
    SourceWindow window(m_options.replayWindow);
    bool sourceDone = false;

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
        window.push(m->offset, fingerprint(m.get()));
        addToDigest(sourceSha, m.get());
        return true;
    };

    qint64 expected = 0; // position in the source range the next target record should equal
    qint64 copied = 0;   // positions [0, copied) have been seen on the target at least once
    bool different = false;
    qint64 lastTargetOffset = tgtLow - 1;

    while (true) {
        MessagePtr t;
        const auto next = m_target.next(&t, error);
        if (next == PartitionReader::Next::Failed)
            return std::nullopt;
        if (next == PartitionReader::Next::End)
            break;
        ++v.targetCount;
        lastTargetOffset = t->offset;
        if (different)
            continue; // only counting from here on
        const Fingerprint fp = fingerprint(t.get());

        if (!aligned) {
            while (true) {
                MessagePtr m;
                const auto r = m_source.next(&m, error);
                if (r == PartitionReader::Next::Failed)
                    return std::nullopt;
                if (r == PartitionReader::Next::End) {
                    sourceDone = true;
                    break;
                }
                if (fingerprint(m.get()) == fp) {
                    window.push(m->offset, fp);
                    addToDigest(sourceSha, m.get());
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
            // An at-least-once restart re-sends from an earlier committed offset.
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
                                   .arg(window.size());
            }
            continue;
        }
        if (matched < copied) {
            ++v.duplicates;
        } else {
            copied = matched + 1;
            addToDigest(targetSha, t.get());
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
    v.sourceCount = aligned ? window.size() : 0;

    if (!different && aligned && copied < window.size()) {
        different = true;
        v.sourceOffset = firstMissingOffset;
        v.targetOffset = lastTargetOffset + 1;
        v.difference = QStringLiteral("missing on the target (%1 of %2 records copied)").arg(copied).arg(window.size());
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
    return v;
}

} // namespace md::verify_detail
