// The job editor takes its words and limits from the profile's schema table
// (model/profile/ProfileSchema.cpp): each field's tooltip is its key's help, range and
// default; spin boxes stop at the key's range; keyword boxes offer exactly
// the key's values.

#include "model/profile/ProfileSchema.h"
#include "ui/job/JobDocument.h"
#include "ui/job/JobEditor.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSpinBox>
#include <QTest>

#include <limits>

using namespace md;
namespace schema = md::profile_schema;

class TstJobEditorSchema final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void tooltipsRangesAndChoicesComeFromTheTable()
    {
        JobDocument doc;
        JobEditor editor(&doc, nullptr);
        // Keys whose spin box starts at 0 on purpose: a too small value gets check's message, not a clamp.
        const QStringList belowMinimum = {QStringLiteral("transactionIntervalMs"),
                                          QStringLiteral("transactionMaxRecords"), QStringLiteral("stop.records")};
        int withField = 0;
        for (const schema::Key &k : schema::keys()) {
            QWidget *w = editor.findChild<QWidget *>(k.path);
            if (!w)
                continue; // not every key has a field (groups, checkpoints)
            ++withField;
            QCOMPARE(w->toolTip(), schema::toolTip(*k.field));
            QVERIFY2(!w->toolTip().isEmpty(), qPrintable(k.path));
            const qint64 min = belowMinimum.contains(k.path) ? 0 : k.field->min;
            if (auto *spin = qobject_cast<QSpinBox *>(w)) {
                QCOMPARE(spin->minimum(), int(min));
                QCOMPARE(spin->maximum(), int(std::min<qint64>(k.field->max, std::numeric_limits<int>::max())));
            } else if (auto *spin = qobject_cast<QDoubleSpinBox *>(w)) {
                QCOMPARE(spin->minimum(), double(min));
                QCOMPARE(spin->maximum(), double(k.field->max));
            } else if (auto *combo = qobject_cast<QComboBox *>(w)) {
                QStringList items;
                for (int i = 0; i < combo->count(); ++i) {
                    if (!combo->itemText(i).isEmpty()) // the mechanism's "not set"
                        items << combo->itemText(i);
                }
                QStringList want = schema::allowedValues(*k.field);
                if (k.field->type == schema::Type::Choice)
                    want += schema::childKeys(k.path);
                QCOMPARE(items, want);
            }
        }
        // Both sides' fields, topics, naming and the running page: most keys have one.
        QVERIFY2(withField >= 40, qPrintable(QString::number(withField)));
        QCOMPARE(editor.findChild<QSpinBox *>(QStringLiteral("samplingIntervalMs"))->minimum(),
                 int(schema::field(QStringLiteral("samplingIntervalMs")).min));
        QVERIFY(editor.findChild<QWidget *>(QStringLiteral("target.sasl.password"))
                    ->toolTip()
                    .contains(QLatin1String("${env:NAME}")));
    }
};

QTEST_MAIN(TstJobEditorSchema)
#include "tst_jobeditorschema.moc"
