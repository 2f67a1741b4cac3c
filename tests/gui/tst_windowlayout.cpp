// The main window on a laptop screen (1366x768): it fits, no visible button of the window
// or its panes is cut off on any tab, the key tables show at least five rows, the job
// editor opens as its own window, and the window's layout comes back on the next start.
// No brokers: nothing connects, nothing is started.
#include "ClusterPane.h"
#include "JobEditorDialog.h"
#include "JobMonitor.h"
#include "JobWorkspace.h"
#include "LagMapWidget.h"
#include "MainWindow.h"
#include "MirrorJob.h"
#include "QCustomPlotInclude.h"

#include <QAbstractButton>
#include <QAbstractScrollArea>
#include <QDockWidget>
#include <QHeaderView>
#include <QMessageBox>
#include <QSettings>
#include <QSplitter>
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

    void fitsALaptopScreen()
    {
        MainWindow window;
        window.addJob(new MirrorJob(demoSpec())); // its monitor shows beside the list
        window.resize(kLaptop);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTest::qWait(50);
        // No minimum size forces it wider or taller.
        QVERIFY2(window.size() == kLaptop, qPrintable(minimumSizes(window.centralWidget(), 8)));

        // Every tab of both panes, with every button on it.
        for (ClusterPane *pane : {window.sourcePane(), window.targetPane()}) {
            for (int tab = 0; tab < pane->tabs()->count(); ++tab) {
                pane->tabs()->setCurrentIndex(tab);
                QTest::qWait(20);
                QCOMPARE(window.size(), kLaptop);
                const QStringList cut = cutOffButtons(&window);
                QVERIFY2(cut.isEmpty(), qPrintable(QStringLiteral("%1 tab %2: %3")
                                                       .arg(pane->objectName(), pane->tabs()->tabText(tab),
                                                            cut.join(QStringLiteral("; ")))));
            }
            pane->tabs()->setCurrentIndex(0);
        }
        // The job monitor's tabs too (the lag map among them).
        auto *monitorTabs = window.jobMonitor(0)->findChild<QTabWidget *>();
        QVERIFY(monitorTabs);
        for (int tab = 0; tab < monitorTabs->count(); ++tab) {
            monitorTabs->setCurrentIndex(tab);
            QTest::qWait(20);
            QCOMPARE(window.size(), kLaptop);
            const QStringList cut = cutOffButtons(&window);
            QVERIFY2(cut.isEmpty(), qPrintable(QStringLiteral("monitor tab %1: %2")
                                                   .arg(monitorTabs->tabText(tab), cut.join(QStringLiteral("; ")))));
        }
        monitorTabs->setCurrentIndex(0);
        QTest::qWait(20);

        // The key tables show a useful number of rows.
        for (QTableView *view : {window.sourcePane()->topicView(), window.targetPane()->topicView(),
                                 window.findChild<QTableView *>(QStringLiteral("jobs"))}) {
            QVERIFY(view);
            QVERIFY2(visibleRows(view) >= 5, qPrintable(QStringLiteral("%1 in %2: %3 rows")
                                                            .arg(view->objectName(), view->parentWidget()->objectName())
                                                            .arg(visibleRows(view))));
        }
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

    void theLayoutComesBackOnTheNextStart()
    {
        QList<int> sizes;
        {
            MainWindow window;
            window.addJob(new MirrorJob(demoSpec()));
            // Its smallest size: the offscreen screen (800x600) clamps a restored window, and
            // splitters keep their sizes only in a window of the same size.
            window.resize(800, 600);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            auto *split = window.findChild<QSplitter *>(QStringLiteral("jobSplitter"));
            QVERIFY(split);
            const int total = split->sizes().value(0) + split->sizes().value(1);
            split->setSizes({total - 500, 500});
            sizes = split->sizes();
            auto *jobs = window.findChild<QTableView *>(QStringLiteral("jobs"));
            jobs->horizontalHeader()->resizeSection(0, 211);
            window.close(); // saves
        }
        MainWindow window;
        window.addJob(new MirrorJob(demoSpec()));
        window.restoreSettings();
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(QSettings().contains(QStringLiteral("mainWindow/geometry")));
        QCOMPARE(window.findChild<QSplitter *>(QStringLiteral("jobSplitter"))->sizes(), sizes);
        QCOMPARE(window.findChild<QTableView *>(QStringLiteral("jobs"))->horizontalHeader()->sectionSize(0), 211);
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
