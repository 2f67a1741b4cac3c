// A wheel turned over a form's combo box or spin box scrolls the form unless
// the field has focus (the job editor changed "Schema ids" that way).

#include "ui/widgets/WheelGuard.h"

#include <QApplication>
#include <QComboBox>
#include <QLineEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QTest>
#include <QVBoxLayout>
#include <QWheelEvent>

using namespace md;

namespace {

void wheelOver(QWidget *w)
{
    const QPointF at(w->width() / 2.0, w->height() / 2.0);
    QWheelEvent e(at, w->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase,
                  false);
    QApplication::sendEvent(w, &e);
}

} // namespace

class TestWheelGuard final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void wheelScrollsTheFormUntilTheFieldHasFocus()
    {
        QScrollArea area;
        area.setWidgetResizable(true);
        auto *form = new QWidget;
        auto *layout = new QVBoxLayout(form);
        auto *name = new QLineEdit; // where the focus is, as when typing a name
        layout->addWidget(name);
        auto *combo = new QComboBox;
        combo->addItems({QStringLiteral("translate"), QStringLiteral("preserve"), QStringLiteral("third")});
        auto *spin = new QSpinBox;
        spin->setRange(0, 100);
        layout->addWidget(combo);
        layout->addWidget(spin);
        layout->addSpacing(3000); // taller than the view: it scrolls
        area.setWidget(form);
        area.resize(300, 200);
        guardWheel(form);
        area.show();
        QVERIFY(QTest::qWaitForWindowExposed(&area));
        name->setFocus();
        QTRY_VERIFY(name->hasFocus());
        QVERIFY(area.verticalScrollBar()->maximum() > 0);

        wheelOver(combo);
        wheelOver(spin);
        QCOMPARE(combo->currentIndex(), 0);
        QCOMPARE(spin->value(), 0);
        QVERIFY2(area.verticalScrollBar()->value() > 0, "the form did not scroll");

        combo->setFocus();
        QTRY_VERIFY(combo->hasFocus());
        wheelOver(combo);
        QCOMPARE(combo->currentIndex(), 1); // focused: the wheel is the field's
    }
};

QTEST_MAIN(TestWheelGuard)
#include "tst_wheelguard.moc"
