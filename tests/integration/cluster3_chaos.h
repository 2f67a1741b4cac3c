#pragma once

// The chaos soak of the three-node fault lane (tst_cluster3_faults.cpp, chaos;
// tests/bench/chaos-soak.sh): random faults of every kind the lane tests, on
// either cluster, one after another, each waited out before the next.

#include "cluster3_support.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QRandomGenerator>
#include <QStringList>
#include <QtTest/QtTest>

namespace md::test {

// The chaos soak's length: MIRRORDESK_CHAOS_SECONDS (the bench runs 1,200;
// CI's integration/tst_cluster3_chaos 150); 0 when unset: not run.
inline int chaosSeconds()
{
    return qEnvironmentVariableIntValue("MIRRORDESK_CHAOS_SECONDS");
}

// Faults one after another until chaosSeconds() have passed since the
// first, each waited out (both clusters whole again) before the next;
// the seed (MIRRORDESK_CHAOS_SEED, else the time) is printed to replay a
// run. Returns what was done; a fault that cannot be made fails the test.
template <class Crash>
QStringList runChaos(const QString &topic, int partitions, const QString &groupId, bool exactlyOnce,
                     Crash &&crashMirror, const QElapsedTimer &clock)
{
    const QString source = QString::fromLatin1(kSource3), target = QString::fromLatin1(kTarget3);
    const quint32 seed = qEnvironmentVariableIsSet("MIRRORDESK_CHAOS_SEED")
                             ? quint32(qEnvironmentVariableIntValue("MIRRORDESK_CHAOS_SEED"))
                             : quint32(QDateTime::currentMSecsSinceEpoch());
    qInfo("chaos: seed %u (MIRRORDESK_CHAOS_SEED=%u replays this run), %d s", seed, seed, chaosSeconds());
    QRandomGenerator rng(seed);
    QStringList done;
    const qint64 until = clock.elapsed() + qint64(chaosSeconds()) * 1000;
    while (clock.elapsed() < until) {
        const QString side = rng.bounded(2) ? source : target;
        const int partition = int(rng.bounded(partitions));
        const ClusterView v = clusterView(bootstrap(side), topic);
        const int leader = v.leaders.value(partition, -1);
        QString error, what;
        bool ok = true;
        const qint64 at = clock.elapsed();
        const quint32 kind = rng.bounded(6);
        switch (kind) {
        case 0:   // a partition leader killed -9, the mirror crashed with it
        case 1: { // a partition leader killed -9
            const bool crash = kind == 0;
            what = QStringLiteral("kill -9 %1 node %2 (leader of %3)%4")
                       .arg(side)
                       .arg(leader)
                       .arg(partition)
                       .arg(crash ? QStringLiteral(" + mirror crash") : QString());
            ok = leader >= 0 && killClusterNode(side, leader, &error) && (!crash || crashMirror()) &&
                 waitForNewLeader(side, topic, partition, leader, 30000) && startClusterNode(side, leader, &error);
            break;
        }
        case 2: { // the coordinator of the job's group killed -9
            const QString where = exactlyOnce ? target : source;
            const int node = groupCoordinatorWhenKnown(bootstrap(where), groupId, &error);
            what = QStringLiteral("kill -9 %1 node %2 (group coordinator)").arg(where).arg(node);
            ok = node >= 0 && killClusterNode(where, node, &error) &&
                 QTest::qWaitFor(
                     [&] {
                         QString ignored;
                         const int now = groupCoordinator(bootstrap(where), groupId, &ignored);
                         return now >= 0 && now != node;
                     },
                     30000) &&
                 startClusterNode(where, node, &error);
            break;
        }
        case 3: { // the partitions reassigned off their leaders and back
            int from = -1, to = -1;
            ok = reassignOffLeadersAndBack(
                side, topic, [] {}, &from, &to, &error);
            what = QStringLiteral("reassign %1 (partition 0: %2 -> %3 -> %2)").arg(side).arg(from).arg(to);
            break;
        }
        case 4: // a node restarted as an operator does (SIGTERM: controlled shutdown)
            what = QStringLiteral("restart %1 node %2").arg(side).arg(leader);
            ok = leader >= 0 && stopClusterNode(side, leader, &error) && startClusterNode(side, leader, &error);
            break;
        default: // the mirror alone crashed
            what = QStringLiteral("mirror crash");
            ok = crashMirror();
            break;
        }
        QString state;
        ok =
            ok && QTest::qWaitFor([&] { return clusterWhole(source, &state) && clusterWhole(target, &state); }, 120000);
        done << QStringLiteral("%1 at %2 s").arg(what).arg(at / 1000);
        // The wall time: the job's events carry it.
        qInfo("chaos: %s at %s: %s in %lld ms", qPrintable(what),
              qPrintable(QDateTime::currentDateTime().addMSecs(at - clock.elapsed()).toString(u"hh:mm:ss.zzz")),
              ok ? "waited out" : "FAILED", clock.elapsed() - at);
        if (!ok) {
            QTest::qFail(qPrintable(QStringLiteral("%1: %2 %3").arg(what, error, state)), __FILE__, __LINE__);
            return done;
        }
        QTest::qWait(3000);
    }
    return done;
}

} // namespace md::test
