// formatCount and formatBytes: the compact figures of the job list, the monitor and `run`'s
// progress line, at and around every unit boundary.

#include "model/tables/NumberFormat.h"

#include <QTest>

using namespace md;

class TestNumberFormat final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void counts_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("text");
        QTest::newRow("zero") << 0.0 << QStringLiteral("0");
        QTest::newRow("below k") << 9999.0 << QStringLiteral("9999");
        QTest::newRow("k") << 12345.0 << QStringLiteral("12.3 k");
        QTest::newRow("M") << 1234567.0 << QStringLiteral("1.23 M");
        QTest::newRow("G") << 2.5e9 << QStringLiteral("2.50 G");
        QTest::newRow("negative") << -25000.0 << QStringLiteral("-25.0 k");
        QTest::newRow("fraction") << 12.9 << QStringLiteral("12");
    }
    void counts()
    {
        QFETCH(double, value);
        QFETCH(QString, text);
        QCOMPARE(formatCount(value), text);
    }

    void bytes_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("text");
        QTest::newRow("B") << 1023.0 << QStringLiteral("1023 B");
        QTest::newRow("KiB") << 1536.0 << QStringLiteral("1.5 KiB");
        QTest::newRow("MiB") << 3.0 * 1024 * 1024 << QStringLiteral("3.0 MiB");
        QTest::newRow("GiB") << 1.25 * 1024 * 1024 * 1024 << QStringLiteral("1.25 GiB");
        QTest::newRow("negative") << -2048.0 << QStringLiteral("-2.0 KiB");
    }
    void bytes()
    {
        QFETCH(double, value);
        QFETCH(QString, text);
        QCOMPARE(formatBytes(value), text);
    }
};

QTEST_GUILESS_MAIN(TestNumberFormat)
#include "tst_numberformat.moc"
