// One partition's offset map as the engine writes it (engine/mirror/MapSegments.h):
// what is written, when a commit may pass it, and what a failed or stale write,
// a new assignment and an aborted transaction leave. A commit past what the
// map made durable would let a crash resume past records no group can be
// translated over; these cases pin that rule without a broker.
#include "engine/mirror/MapSegments.h"

#include <QTest>

#include <vector>

using namespace md;

namespace {

// Writes one round, as OffsetMapWriter does, keeping what was "produced".
std::vector<MapSegments::Write> writeRound(MapSegments &m, qint64 covered, int refuseAfter = -1)
{
    std::vector<MapSegments::Write> out;
    m.write(covered, [&](const MapSegments::Write &w) {
        if (refuseAfter >= 0 && int(out.size()) >= refuseAfter)
            return false;
        out.push_back(w);
        return true;
    });
    return out;
}

void ackAll(MapSegments &m, const std::vector<MapSegments::Write> &writes)
{
    for (const MapSegments::Write &w : writes)
        if (m.settle(w))
            m.acknowledged(w);
}

} // namespace

class TstMapSegments final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void contiguousCopiesMakeOneSegment()
    {
        MapSegments m;
        for (qint64 o = 0; o < 100; ++o)
            m.noteCopied(o, 1000 + o);
        QCOMPARE(m.segments().size(), size_t(1));
        QCOMPARE(m.segments().front().sourceStart, 0);
        QCOMPARE(m.segments().front().sourceEnd, 100);
        QCOMPARE(m.segments().front().targetStart, 1000);
    }

    void aGapInTheSourceBeginsASegment()
    {
        MapSegments m;
        m.noteCopied(0, 10);
        m.noteCopied(1, 11);
        m.noteCopied(5, 12); // records gone from the source (retention, compaction)
        m.noteCopied(6, 13);
        m.noteCopied(2, 14); // the source read again (a re-copy after a crash)
        m.noteCopied(3, 9);  // the target went back (recreated)
        QCOMPARE(m.segments().size(), size_t(4));
        QCOMPARE(m.segments()[1].sourceStart, 5);
        QCOMPARE(m.segments()[1].targetStart, 12);
        QCOMPARE(m.segments()[2].sourceStart, 2);
        QCOMPARE(m.segments()[3].targetStart, 9);
        for (const MapSegments::Segment &seg : m.segments())
            QVERIFY(seg.steps.empty());
    }

    // The target's offsets jumped where the source's did not (an exactly-once
    // commit's marker, aborted records, another writer): the same segment, a
    // step, so one map record covers many transactions.
    void aJumpOfTheTargetIsAStep()
    {
        MapSegments m;
        for (qint64 o = 0; o < 10; ++o)
            m.noteCopied(o, o);
        for (qint64 o = 10; o < 20; ++o)
            m.noteCopied(o, o + 1); // marker at 10
        for (qint64 o = 20; o < 30; ++o)
            m.noteCopied(o, o + 5); // marker, three aborted records, marker
        QCOMPARE(m.segments().size(), size_t(1));
        QCOMPARE(m.segments().front().steps, (std::vector<OffsetStep>{{10, 1}, {20, 5}}));
        // What is below covered is written, with the steps below it.
        auto writes = writeRound(m, 15);
        QCOMPARE(writes.size(), size_t(1));
        QCOMPARE(writes[0].sourceEnd, 15);
        QCOMPARE(writes[0].steps, (std::vector<OffsetStep>{{10, 1}}));
        ackAll(m, writes);
        writes = writeRound(m, 30);
        QCOMPARE(writes.size(), size_t(1));
        QCOMPARE(writes[0].sourceStart, 0); // the same record, so compaction keeps one
        QCOMPARE(writes[0].steps, (std::vector<OffsetStep>{{10, 1}, {20, 5}}));
        QVERIFY(writes[0].whole);
    }

    // A record's value stays bounded: past kMaxOffsetSteps the next jump
    // begins a new segment.
    void stepsPerSegmentAreBounded()
    {
        MapSegments m;
        qint64 target = 0;
        for (qint64 o = 0; o < 10 * (kMaxOffsetSteps + 2); ++o) {
            if (o > 0 && o % 10 == 0)
                ++target; // a marker every ten records
            m.noteCopied(o, target++);
        }
        QCOMPARE(m.segments().size(), size_t(2));
        QCOMPARE(int(m.segments().front().steps.size()), kMaxOffsetSteps);
        QCOMPARE(m.segments().back().sourceStart, 10 * (kMaxOffsetSteps + 1));
        QCOMPARE(m.segments().back().targetStart, 11 * (kMaxOffsetSteps + 1));
    }

    void commitsWaitForTheMap()
    {
        MapSegments m;
        QCOMPARE(m.limit(42), 42); // nothing copied: nothing for the map to cover
        for (qint64 o = 0; o < 10; ++o)
            m.noteCopied(o, o);
        QCOMPARE(m.limit(10), -1); // copied, nothing durable yet
        const auto writes = writeRound(m, 10);
        QCOMPARE(writes.size(), size_t(1));
        QCOMPARE(m.limit(10), -1); // written, not acknowledged
        ackAll(m, writes);
        QCOMPARE(m.limit(10), 10);
        m.noteCopied(10, 10);
        QCOMPARE(m.limit(11), 10); // the new copy waits for its write
    }

    void onlyWhatIsBelowCoveredIsWritten()
    {
        MapSegments m;
        for (qint64 o = 0; o < 10; ++o)
            m.noteCopied(o, 100 + o);
        auto writes = writeRound(m, 6); // 6..9 acknowledged out of order, still in flight before them
        QCOMPARE(writes.size(), size_t(1));
        QCOMPARE(writes[0].sourceEnd, 6);
        QCOMPARE(writes[0].covered, 6);
        QVERIFY(!writes[0].whole);
        QVERIFY(m.segments().front().dirty); // the rest is still to say
        ackAll(m, writes);
        writes = writeRound(m, 10);
        QCOMPARE(writes.size(), size_t(1));
        QCOMPARE(writes[0].sourceStart, 0); // same key: compaction keeps the longer one
        QCOMPARE(writes[0].sourceEnd, 10);
        QVERIFY(writes[0].whole);
        ackAll(m, writes);
        QCOMPARE(m.limit(10), 10);
    }

    void aRefusedProduceLeavesTheRestForTheNextRound()
    {
        MapSegments m;
        m.noteCopied(0, 0);
        m.noteCopied(5, 1);
        m.noteCopied(9, 2);
        auto writes = writeRound(m, 10, 1); // the producer's queue takes one
        QCOMPARE(writes.size(), size_t(1));
        // The record written claims only up to the next segment: were the
        // process to die now, offsets 5 and 9 must not read as gaps.
        QCOMPARE(writes[0].covered, 5);
        ackAll(m, writes);
        QCOMPARE(m.limit(10), 5);
        writes = writeRound(m, 10);
        QCOMPARE(writes.size(), size_t(2)); // the other two segments go out
        QCOMPARE(writes[0].sourceStart, 5);
        QCOMPARE(writes[0].covered, 9);
        QCOMPARE(writes[1].sourceStart, 9);
        QCOMPARE(writes[1].covered, 10);
        QCOMPARE(m.inFlight(), 2);
        ackAll(m, writes);
        QCOMPARE(m.limit(10), 10);
    }

    void aRefusalDistrustsTheLaterRecordsOfItsRound()
    {
        // Record 2 of a round refused, record 3 acknowledged (a record the
        // target refuses alone): 3 claims to cover 2's offsets, which no
        // durable record holds. The commit must stay until all is rewritten.
        MapSegments m;
        m.noteCopied(0, 0);
        m.noteCopied(5, 1);
        m.noteCopied(9, 2);
        auto writes = writeRound(m, 10);
        QCOMPARE(writes.size(), size_t(3));
        QVERIFY(m.settle(writes[0]));
        m.acknowledged(writes[0]);
        QVERIFY(m.settle(writes[1]));
        m.refused();
        QVERIFY(m.settle(writes[2]));
        m.acknowledged(writes[2]);
        QCOMPARE(m.limit(10), 5);
        writes = writeRound(m, 10);
        QCOMPARE(writes.size(), size_t(2)); // all but the durable first segment again, in order
        QCOMPARE(writes[0].sourceStart, 5);
        QCOMPARE(writes[1].sourceStart, 9);
        ackAll(m, writes);
        QCOMPARE(m.limit(10), 10);
    }

    void acknowledgedClosedSegmentsLeaveOldestFirst()
    {
        MapSegments m;
        m.noteCopied(0, 0);
        m.noteCopied(5, 1);
        m.noteCopied(9, 2);
        ackAll(m, writeRound(m, 10));
        QCOMPARE(m.segments().size(), size_t(1)); // the growing one stays
        QCOMPARE(m.segments().front().sourceStart, 9);
        QCOMPARE(m.inFlight(), 0);
        QVERIFY(writeRound(m, 10).empty()); // nothing new: nothing written
    }

    void aFailedDeliveryWritesEverythingAgain()
    {
        MapSegments m;
        m.noteCopied(0, 0);
        m.noteCopied(5, 1);
        auto writes = writeRound(m, 6);
        QCOMPARE(writes.size(), size_t(2));
        QVERIFY(m.settle(writes[0]));
        m.acknowledged(writes[0]);
        QVERIFY(m.settle(writes[1]));
        m.refused();
        QCOMPARE(m.limit(6), 5); // what was acknowledged stays durable: up to the second segment
        writes = writeRound(m, 6);
        QCOMPARE(writes.size(), size_t(1)); // the refused one again; the first is durable
        QCOMPARE(writes[0].sourceStart, 5);
        QCOMPARE(writes[0].covered, 6);
    }

    void progressWithoutCopiesMovesTheMapsCover()
    {
        // Control records (transaction markers) move the committable offset
        // past the last copy; the map must say it covers them, or the commit
        // stays behind for ever.
        MapSegments m;
        for (qint64 o = 0; o < 5; ++o)
            m.noteCopied(o, o);
        ackAll(m, writeRound(m, 5));
        QCOMPARE(m.limit(7), 5);
        const auto writes = writeRound(m, 7);
        QCOMPARE(writes.size(), size_t(1));
        QCOMPARE(writes[0].sourceEnd, 5);
        QCOMPARE(writes[0].covered, 7);
        ackAll(m, writes);
        QCOMPARE(m.limit(7), 7);
        QVERIFY(writeRound(m, 7).empty());
    }

    void aNewAssignmentMakesOldReportsStale()
    {
        MapSegments m;
        for (qint64 o = 0; o < 5; ++o)
            m.noteCopied(o, o);
        const auto old = writeRound(m, 5);
        m.reset(); // revoked and given back: progress is read again
        QVERIFY(!m.used());
        QCOMPARE(m.inFlight(), 1); // its report still comes
        QVERIFY(!m.settle(old[0]));
        QCOMPARE(m.inFlight(), 0);
        m.noteCopied(5, 5);
        QCOMPARE(m.limit(6), -1); // the old write does not cover the new assignment's copies
    }

    void anAbortedTransactionIsForgotten()
    {
        MapSegments m;
        for (qint64 o = 0; o < 5; ++o)
            m.noteCopied(o, o);
        ackAll(m, writeRound(m, 5));
        m.committedInTransaction();
        for (qint64 o = 5; o < 8; ++o)
            m.noteCopied(o, o + 1); // the transaction's marker took a target offset
        m.noteCopied(8, 20);
        m.rewind(5); // the transaction from 5 on aborted
        QCOMPARE(m.segments().size(), size_t(1));
        QCOMPARE(m.segments().front().sourceEnd, 5);
        QVERIFY(m.segments().front().steps.empty()); // its steps went with it
        m.noteCopied(5, 22);                         // copied again after the abort's records and marker
        QCOMPARE(m.segments().front().steps, (std::vector<OffsetStep>{{5, 17}}));
        m.rewind(5);
        const auto writes = writeRound(m, 5);
        QCOMPARE(writes.size(), size_t(1)); // written again in the next transaction
        QCOMPARE(writes[0].sourceEnd, 5);
    }

    // The source topic was deleted and created again: a reset record goes
    // before the new log's first segment, and is written again until it is
    // durable (refused: again first; exactly-once: again after an abort).
    void aResetRecordGoesFirstUntilItIsDurable()
    {
        MapSegments m;
        m.resetFirst();
        for (qint64 o = 0; o < 5; ++o)
            m.noteCopied(o, 100 + o);
        auto writes = writeRound(m, 5);
        QCOMPARE(writes.size(), size_t(2));
        QVERIFY(writes[0].reset);
        QVERIFY(!writes[1].reset);
        QCOMPARE(writes[1].sourceStart, 0);
        // The reset refused: the segment acknowledged after it counts for nothing.
        QVERIFY(m.settle(writes[0]));
        m.refused();
        QVERIFY(m.settle(writes[1]));
        m.acknowledged(writes[1]);
        QCOMPARE(m.limit(5), -1);
        QVERIFY(m.resetPending());
        writes = writeRound(m, 5);
        QCOMPARE(writes.size(), size_t(2));
        QVERIFY(writes[0].reset);
        ackAll(m, writes);
        QVERIFY(!m.resetPending());
        QCOMPARE(m.limit(5), 5);
        m.noteCopied(5, 105);
        writes = writeRound(m, 6);
        QCOMPARE(writes.size(), size_t(1)); // once durable, never again
        QVERIFY(!writes[0].reset);
    }

    void exactlyOnceAResetAbortedIsWrittenAgain()
    {
        MapSegments m;
        m.resetFirst();
        m.noteCopied(0, 100);
        auto writes = writeRound(m, 1);
        QVERIFY(writes.size() == 2 && writes[0].reset);
        ackAll(m, writes); // delivered into the open transaction...
        m.rewind(0);       // ...which aborted
        QVERIFY(m.resetPending());
        m.noteCopied(0, 103);
        writes = writeRound(m, 1);
        QVERIFY(writes.size() == 2 && writes[0].reset);
        m.committedInTransaction();
        QVERIFY(!m.resetPending());
        m.noteCopied(1, 104);
        writes = writeRound(m, 2);
        QVERIFY(writes.size() == 1 && !writes[0].reset);
        // A new assignment forgets a reset not yet written.
        m.resetFirst();
        m.reset();
        QVERIFY(!m.resetPending());
    }

    void aCommittedTransactionMakesItsWritesDurable()
    {
        MapSegments m;
        m.noteCopied(0, 0);
        m.noteCopied(3, 1);
        m.noteCopied(7, 2);
        const auto writes = writeRound(m, 8);
        QCOMPARE(writes.size(), size_t(3));
        m.committedInTransaction(); // the transaction's records are the acknowledgement
        QCOMPARE(m.segments().size(), size_t(1));
        QCOMPARE(m.segments().front().sourceStart, 7);
    }
};

QTEST_GUILESS_MAIN(TstMapSegments)
#include "tst_mapsegments.moc"
