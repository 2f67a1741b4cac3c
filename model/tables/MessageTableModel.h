#pragma once

#include "engine/admin/AdminService.h"

#include <QAbstractTableModel>
#include <QJsonObject>

namespace md {

// Messages read from a topic (one query's result). Keys, values and headers
// show as UTF-8 text, pretty JSON, hex or decoded by the cluster's schema
// registry, chosen by the display mode; the raw bytes are under RawRole (an
// invalid QVariant for null). Exports write JSON or
// CSV atomically (a failed export leaves any existing file untouched).
class MessageTableModel final : public QAbstractTableModel {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MessageTableModel)
public:
    enum Column { Partition, Offset, Timestamp, Key, Value, Headers, ColumnCount };
    // Decoded: a key or value the registry decoded as its JSON; one in the
    // wire format that did not decode as its bytes, the reason in its tooltip;
    // any other as Json shows it. Headers as Text.
    enum class DisplayMode { Text, Json, Hex, Decoded };
    Q_ENUM(DisplayMode)
    static constexpr int SortRole = Qt::UserRole + 1;
    static constexpr int RawRole = Qt::UserRole + 2;
    // Key and Value, in every mode: why a part in the wire format did not decode (empty otherwise).
    static constexpr int DecodeErrorRole = Qt::UserRole + 3;
    // Key and Value, in every mode: schemaLabel() of the part (empty when Plain).
    static constexpr int SchemaRole = Qt::UserRole + 4;

    explicit MessageTableModel(QObject *parent = nullptr);

    void setMessages(const QList<KafkaMessage> &messages);
    // A search's next batch of matches: one insert for the whole batch.
    void appendMessages(const QList<KafkaMessage> &messages);
    const QList<KafkaMessage> &messages() const { return m_messages; }
    const KafkaMessage *messageAt(int row) const;

    DisplayMode displayMode() const { return m_mode; }
    void setDisplayMode(DisplayMode mode);

    // Bytes as shown: "(null)" for null; Text: UTF-8 (invalid bytes replaced);
    // Json: indented when the bytes are a JSON document, else as Text; Hex: "0a ff".
    static QString render(const std::optional<QByteArray> &bytes, DisplayMode mode);
    // A key or value as shown: in Decoded mode the part's JSON when it
    // decoded, else the bytes (Text when it failed, Json when Plain); other
    // modes render the bytes.
    static QString render(const std::optional<QByteArray> &bytes, const DecodedPart &part, DisplayMode mode);
    // "schema 17 (AVRO, orders-value v3)", "schema 4 (PROTOBUF, shop.Order)"; empty when Plain.
    static QString schemaLabel(const DecodedPart &part);
    // One message as text for the clipboard (every field, in the given mode).
    static QString describe(const KafkaMessage &message, DisplayMode mode);
    // One message as the JSON export writes it (one element of its array); a
    // part in the wire format adds "keyDecoded"/"valueDecoded": schema id,
    // subject, version, type, and the decoded value or the error.
    static QJsonObject toJson(const KafkaMessage &message);

    // Exports `rows` (every message when empty). JSON: an array of objects;
    // bytes as a UTF-8 string when valid, else {"base64": ...}; null as null.
    // CSV (RFC 4180): topic,partition,offset,timestamp,key,value,headers; null
    // is an empty field, empty is "" ; non-UTF-8 bytes as base64:<data>.
    // With `decoded` (the panel asks for it while the table shows Decoded)
    // four columns follow: keySchema,keyDecoded,valueSchema,valueDecoded:
    // schemaLabel() (and "; not decoded: <why>" when it failed) and the
    // decoded JSON; empty for a part not in the wire format.
    bool exportJson(const QString &path, QString *error, const QList<int> &rows = {}) const;
    bool exportCsv(const QString &path, QString *error, const QList<int> &rows = {}, bool decoded = false) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<const KafkaMessage *> selected(const QList<int> &rows, QString *error) const;

    QList<KafkaMessage> m_messages;
    DisplayMode m_mode = DisplayMode::Text;
};

} // namespace md
