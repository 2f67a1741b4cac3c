// The main window on a laptop (1366x768), a desktop (1920x1080) and a HiDPI screen
// (2560x1440 at QT_SCALE_FACTOR=2, 1280x720 logical; CTest runs this file a second time
// with the factor set): it fits; no visible button of the window, its cluster views, a
// job's monitor or a comparison is cut off or has its text squeezed, on any tab; the key
// tables (topics, messages, the monitor's partitions) show a useful number of rows. The
// job editor opens as its own window. No brokers: nothing connects, nothing is started.
#include "engine/mirror/MirrorJob.h"
#include "ui/charts/LagMapWidget.h"
#include "ui/charts/QCustomPlotInclude.h"
#include "ui/cluster/ClusterPane.h"
#include "ui/cluster/MessagesPanel.h"
#include "ui/job/CompareView.h"
#include "ui/job/JobEditorDialog.h"
#include "ui/job/JobMonitor.h"
#include "ui/job/JobWorkspace.h"
#include "ui/window/MainWindow.h"
#include "ui/window/WorkArea.h"

#include <QAbstractButton>
#include <QAbstractScrollArea>
#include <QDockWidget>
#include <QHeaderView>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

using namespace md;

namespace {

constexpr QSize kLaptop(1366, 768);

// Visible buttons of `top` that are not wholly inside `top` and every ancestor up to it
// (an ancestor smaller than its child clips it), by object name and class.
QStringList cutOffButtons(QWidget *top)
{
    QStringList out;
    for (QAbstractButton *b : top->findChildren<QAbstractButton *>()) {
        if (!b->isVisible() || b->window() != top)
            continue;
        QRect r(b->mapTo(top, QPoint(0, 0)), b->size());
        bool inside = top->rect().contains(r);
        for (QWidget *p = b->parentWidget(); inside && p && p != top; p = p->parentWidget()) {
            if (qobject_cast<QAbstractScrollArea *>(p))
                break; // scrolled content is reachable by scrolling
            inside = p->rect().contains(QRect(b->mapTo(p, QPoint(0, 0)), b->size()));
        }
        if (!inside) {
            const QString name = b->objectName().isEmpty() ? b->text() : b->objectName();
            out << QStringLiteral("%1 \"%2\" at %3,%4 %5x%6")
                       .arg(QString::fromLatin1(b->metaObject()->className()), name)
                       .arg(r.x())
                       .arg(r.y())
                       .arg(r.width())
                       .arg(r.height());
        }
    }
    return out;
}

// Visible buttons of `top` narrower than they ask to be: the style elides or cuts their text.
QStringList squeezedButtons(QWidget *top)
{
    QStringList out;
    for (QAbstractButton *b : top->findChildren<QAbstractButton *>()) {
        if (!b->isVisible() || b->window() != top)
            continue;
        if (b->sizeHint().width() > b->width()) {
            const QString name = b->objectName().isEmpty() ? b->text() : b->objectName();
            out << QStringLiteral("%1 \"%2\" %3 wide, asks %4")
                       .arg(QString::fromLatin1(b->metaObject()->className()), name)
                       .arg(b->width())
                       .arg(b->sizeHint().width());
        }
    }
    return out;
}

QStringList badButtons(QWidget *top)
{
    return cutOffButtons(top) + squeezedButtons(top);
}

// What asks for the room: the minimum sizes of the widgets down to `depth` levels.
QString minimumSizes(const QWidget *w, int depth = 4, const QString &indent = {})
{
    const QSize m = w->minimumSizeHint().expandedTo(w->minimumSize());
    QString out = QStringLiteral("%1%2 %3: %4x%5\n")
                      .arg(indent, QString::fromLatin1(w->metaObject()->className()), w->objectName())
                      .arg(m.width())
                      .arg(m.height());
    if (depth > 0) {
        for (const QWidget *c : w->findChildren<QWidget *>(Qt::FindDirectChildrenOnly)) {
            if (!c->isWindow() && c->minimumSizeHint().expandedTo(c->minimumSize()).height() > 60)
                out += minimumSizes(c, depth - 1, indent + QStringLiteral("  "));
        }
    }
    return out;
}

int visibleRows(const QTableView *view)
{
    const int rowHeight = view->verticalHeader()->defaultSectionSize();
    return rowHeight > 0 ? view->viewport()->height() / rowHeight : 0;
}

MirrorJobSpec demoSpec()
{
    MirrorJobSpec spec;
    spec.name = QStringLiteral("layout demo");
    spec.source.alias = QStringLiteral("src");
    spec.source.bootstrap = QStringLiteral("127.0.0.1:1");
    spec.target.alias = QStringLiteral("dst");
    spec.target.bootstrap = QStringLiteral("127.0.0.1:2");
    spec.include = {QStringLiteral("demo\\..*")};
    return spec;
}

} // namespace

class TestWindowLayout final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("MirrorDesk-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_windowlayout"));
        QSettings().clear();
    }

    void fitsTheScreen_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<int>("minRows");
        QTest::newRow("laptop 1366x768") << kLaptop << 10;
        QTest::newRow("desktop 1920x1080") << QSize(1920, 1080) << 18;
        // 2560x1440 at a scale factor of 2: the layout sees 1280x720.
        QTest::newRow("HiDPI 1280x720 logical") << QSize(1280, 720) << 9;
    }

    void fitsTheScreen()
    {
        QFETCH(QSize, size);
        QFETCH(int, minRows);
        MainWindow window;
        window.addJob(new MirrorJob(demoSpec()));
        JobMonitor *monitor = window.openJobMonitor(0); // a tab of the work area, as when it starts
        QVERIFY(monitor);
        window.resize(size);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTest::qWait(50);
        qInfo("device pixel ratio %.1f", window.devicePixelRatioF());
        // No minimum size forces it wider or taller.
        QVERIFY2(window.size() == size, qPrintable(minimumSizes(window.centralWidget(), 8)));
        WorkArea *area = window.workArea();
        const auto check = [&](const QString &where) {
            QTest::qWait(20);
            QCOMPARE(window.size(), size);
            const QStringList bad = badButtons(&window);
            QVERIFY2(bad.isEmpty(), qPrintable(where + QStringLiteral(": ") + bad.join(QStringLiteral("; "))));
        };
        const auto rows = [&](QTableView *view, const QString &where) {
            QVERIFY(view);
            qInfo("%s %s: %d rows", qPrintable(where), qPrintable(view->objectName()), visibleRows(view));
            QVERIFY2(
                visibleRows(view) >= minRows,
                qPrintable(QStringLiteral("%1 %2: %3 rows").arg(where, view->objectName()).arg(visibleRows(view))));
        };

        // Every tab of both cluster views, with every button on it.
        for (ClusterPane *pane : {window.sourcePane(), window.targetPane()}) {
            area->raise(pane);
            for (int tab = 0; tab < pane->tabs()->count(); ++tab) {
                pane->tabs()->setCurrentIndex(tab);
                check(pane->objectName() + QStringLiteral(" tab ") + pane->tabs()->tabText(tab));
                if (pane->tabs()->currentWidget() == pane->messagesPanel())
                    rows(pane->messagesPanel()->view(), pane->objectName());
                if (QTest::currentTestFailed())
                    return;
            }
            pane->tabs()->setCurrentIndex(0);
            QTest::qWait(20);
            rows(pane->topicView(), pane->objectName());
            if (QTest::currentTestFailed())
                return;
        }
        // The job monitor's tabs too (the lag map among them).
        area->raise(monitor);
        auto *monitorTabs = monitor->findChild<QTabWidget *>(QStringLiteral("charts"));
        QVERIFY(monitorTabs);
        for (int tab = 0; tab < monitorTabs->count(); ++tab) {
            monitorTabs->setCurrentIndex(tab);
            check(QStringLiteral("monitor tab ") + monitorTabs->tabText(tab));
            if (QTest::currentTestFailed())
                return;
        }
        monitor->setCurrentChart(JobMonitor::Partitions);
        QTest::qWait(20);
        rows(monitor->findChild<QTableView *>(QStringLiteral("partitions")), QStringLiteral("monitor"));
        if (QTest::currentTestFailed())
            return;
        monitor->setCurrentChart(JobMonitor::Throughput);
        // The navigator's job list.
        QVERIFY2(visibleRows(window.findChild<QTableView *>(QStringLiteral("jobs"))) >= 5, "the job list");

        // A comparison's tab (it reads nothing: the clusters are unreachable).
        window.findChild<QTableView *>(QStringLiteral("jobs"))->selectRow(0);
        CompareView *compare = window.compareSelectedJob();
        QVERIFY(compare);
        QVERIFY(area->isOpen(compare));
        check(QStringLiteral("compare tab"));
        if (QTest::currentTestFailed())
            return;
        QVERIFY(compare->view()->viewport()->height() >= minRows * compare->view()->fontMetrics().height());
    }

    void theJobEditorIsItsOwnWindow()
    {
        MainWindow window;
        window.resize(kLaptop);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(!window.findChild<QDockWidget *>()); // no dock squeezed beside the panes
        JobWorkspace *ws = window.workspace();
        ws->setQuestionHook([](JobWorkspace::Question, const QString &) { return int(QMessageBox::Discard); });
        ws->newDocument();
        JobEditorDialog *dialog = window.editorDialog();
        QTRY_VERIFY(dialog->isVisible());
        QVERIFY(dialog->isWindow());
        QCOMPARE(window.size(), kLaptop); // the main window keeps its size
        QVERIFY(dialog->width() >= 600);
        const QStringList cut = cutOffButtons(dialog);
        QVERIFY2(cut.isEmpty(), qPrintable(cut.join(QStringLiteral("; "))));
        // Closing the dialog closes the profiles; closing the last one hides it.
        dialog->reject();
        QVERIFY(ws->editors().isEmpty());
        QVERIFY(!dialog->isVisible());
        ws->newDocument();
        QTRY_VERIFY(dialog->isVisible());
        QVERIFY(ws->closeAll());
        QVERIFY(!dialog->isVisible());
    }

    void theLagMapLabelsOnlyRowsThatFit()
    {
        MetricStore store;
        LagMapWidget map(&store);
        QVERIFY(map.minimumHeight() >= 100);
        map.resize(600, 200);
        map.show();
        QVERIFY(QTest::qWaitForWindowExposed(&map));
        const int line = QFontMetrics(map.font()).height();
        for (int rows : {21, 200, 1000}) {
            const int step = map.labelStep(rows);
            // Labelled rows are at least a text line apart.
            QVERIFY2(double(map.plot()->axisRect()->height()) / rows * step >= line,
                     qPrintable(QStringLiteral("%1 rows, every %2th labelled").arg(rows).arg(step)));
        }
        QCOMPARE(map.labelStep(3), 1); // few partitions: every row
    }
};

QTEST_MAIN(TestWindowLayout)
#include "tst_windowlayout.moc"
