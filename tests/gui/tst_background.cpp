// md::inBackground (ui/widgets/Background.h), the one way widgets run one-shot work: the answer
// reaches `done` on the UI thread, from the event loop and never inside the call, and not
// at all once the receiver is gone.
#include "ui/widgets/Background.h"

#include <QObject>
#include <QTest>
#include <QThread>

#include <atomic>
#include <memory>

using namespace md;

class TestBackground final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void answerNeverArrivesInsideTheCall()
    {
        // Work that is done at once is the case Qt 6.4 answers inside then(): a caller
        // that sets up state after the call would have it overwritten by its own answer.
        QObject receiver;
        constexpr int kCalls = 2000;
        int inside = 0;
        int answered = 0;
        for (int i = 0; i < kCalls; ++i) {
            bool returned = false;
            inBackground<int>(
                &receiver, [i] { return i; },
                [&, i](int value) {
                    QCOMPARE(value, i);
                    QCOMPARE(QThread::currentThread(), qApp->thread());
                    if (!returned)
                        ++inside;
                    ++answered;
                });
            returned = true;
            // Let the pool finish the task before the next call, as a slow caller would.
            if (i % 4 == 0)
                QThread::usleep(50);
            QCoreApplication::processEvents();
        }
        QTRY_COMPARE(answered, kCalls);
        QCOMPARE(inside, 0);
    }

    void goneReceiverGetsNoAnswer()
    {
        auto receiver = std::make_unique<QObject>();
        auto release = std::make_shared<std::atomic_bool>(false);
        bool called = false;
        inBackground<int>(
            receiver.get(),
            [release] {
                while (!release->load())
                    QThread::msleep(1);
                return 1;
            },
            [&called](int) { called = true; });
        receiver.reset(); // the dialog closed while its task ran
        release->store(true);
        // A second task queued after it answers, so the first answer had its chance.
        QObject other;
        bool otherCalled = false;
        inBackground<int>(
            &other, [] { return 2; }, [&otherCalled](int) { otherCalled = true; });
        QTRY_VERIFY(otherCalled);
        QTest::qWait(50);
        QVERIFY(!called);
    }
};

QTEST_MAIN(TestBackground)
#include "tst_background.moc"
