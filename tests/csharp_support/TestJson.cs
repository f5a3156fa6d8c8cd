// Test hosts only (not Udon code): the one JSON string writer of Host.cs, Players.cs and
// SlidersDriver.cs. Everything outside printable ASCII is a \u escape, so the lines a host
// prints are ASCII whatever the program text holds.
using System.Text;

public static class TestJson
{
    public static string Quote(string s)
    {
        if (s == null)
        {
            return "null";
        }
        StringBuilder sb = new StringBuilder("\"");
        foreach (char ch in s)
        {
            if (ch == '"' || ch == '\\')
            {
                sb.Append('\\').Append(ch);
            }
            else if (ch < 0x20 || ch > 0x7E)
            {
                sb.Append("\\u").Append(((int)ch).ToString("x4"));
            }
            else
            {
                sb.Append(ch);
            }
        }
        return sb.Append('"').ToString();
    }
}
