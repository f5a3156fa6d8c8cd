// Test driver (not Udon code): reads program texts through the generated ProgramSliders and
// prints the table it builds, one JSON line per text, for tests/test_world_sliders.py to
// compare with psl.syntax.sliders.parse_sliders.
//
// stdin: one text per line, base64 of its UTF-16LE code units (so any text travels exactly;
// an empty line is the empty text); "carry TEXT V0,V1,..." reads TEXT as the program a
// share carried those values for (CarryValues first).
// stdout per text: {"events": N, "exc": null|"...", "table": [[index, name, lowbits,
// highbits, defaultbits], ...], "uniform": [bits x COUNT] | null}
// Each text is read as in the world: Begin(text), then Update() events until `parsing` ends;
// the table is the one the behaviour then shows, the uniform what it set on the material.

using System;
using System.Reflection;
using System.Text;
using UnityEngine;
using UnityEngine.UI;
using PSL.Shaderception;

public static class SlidersDriver
{
    private static readonly BindingFlags Any = BindingFlags.Public | BindingFlags.NonPublic
        | BindingFlags.Instance;

    public static int Main(string[] args)
    {
        MethodInfo update = typeof(ProgramSliders).GetMethod("Update", Any);
        string line;
        while ((line = Console.In.ReadLine()) != null)
        {
            float[] carried = null;
            if (line.StartsWith("carry ", StringComparison.Ordinal))
            {
                // "carry <base64 text> <v0,v1,...>": a share carried these values for the text
                string[] parts = line.Split(' ');
                line = parts[1];
                string[] vs = parts[2].Split(',');
                carried = new float[vs.Length];
                for (int k = 0; k < vs.Length; k++)
                {
                    carried[k] = float.Parse(vs[k], System.Globalization.CultureInfo.InvariantCulture);
                }
            }
            string text = Encoding.Unicode.GetString(Convert.FromBase64String(line));
            ProgramSliders s = new ProgramSliders();
            Material m = new Material();
            s.materials = new Material[] { m };
            int count = 8;
            s.sliders = new Slider[count];
            s.labels = new Text[count];
            s.rows = new GameObject[count];
            for (int k = 0; k < count; k++)
            {
                s.sliders[k] = new Slider();
                s.labels[k] = new Text();
                s.rows[k] = new GameObject();
            }
            int events = 0;
            string exc = null;
            try
            {
                if (carried != null)
                {
                    s.CarryValues(text, carried);
                }
                s.Begin(text);
                while (s.parsing && events < 10000000)
                {
                    update.Invoke(s, null);
                    events++;
                }
            }
            catch (Exception e)
            {
                exc = (e.InnerException ?? e).ToString();
            }
            StringBuilder sb = new StringBuilder("{\"events\": ").Append(events);
            sb.Append(", \"exc\": ").Append(exc == null ? "null" : Json(exc));
            sb.Append(", \"table\": [");
            bool first = true;
            for (int k = 0; exc == null && k < s.named.Length; k++)
            {
                if (!s.named[k])
                {
                    if (s.rows[k].activeSelf)
                    {
                        exc = "row " + k + " shown for an unnamed index";
                    }
                    continue;
                }
                sb.Append(first ? "" : ", ").Append("[").Append(k).Append(", ").Append(Json(s.names[k]))
                    .Append(", ").Append(Bits(s.lows[k])).Append(", ").Append(Bits(s.highs[k]))
                    .Append(", ").Append(Bits(s.defaults[k])).Append(", ")
                    .Append(Bits(s.sliders[k].minValue)).Append(", ").Append(Bits(s.sliders[k].maxValue))
                    .Append(", ").Append(Bits(s.sliders[k].value)).Append(", ")
                    .Append(s.rows[k].activeSelf ? "true" : "false").Append(", ")
                    .Append(s.sliders[k].Notified).Append("]");
                first = false;
            }
            sb.Append("], \"uniform\": ");
            float[] u;
            if (m.FloatArrays.TryGetValue("_Sliders", out u))
            {
                sb.Append("[");
                for (int k = 0; k < u.Length; k++)
                {
                    sb.Append(k > 0 ? ", " : "").Append(Bits(u[k]));
                }
                sb.Append("]");
            }
            else
            {
                sb.Append("null");
            }
            sb.Append(", \"values\": [");
            for (int k = 0; s.values != null && k < s.values.Length; k++)
            {
                sb.Append(k > 0 ? ", " : "").Append(Bits(s.values[k]));
            }
            sb.Append("]");
            if (exc != null)
            {
                sb.Append(", \"late\": ").Append(Json(exc));
            }
            Console.WriteLine(sb.Append("}").ToString());
        }
        return 0;
    }

    private static long Bits(float f)
    {
        return (long)(uint)BitConverter.ToInt32(BitConverter.GetBytes(f), 0);
    }

    private static string Json(string s)
    {
        return TestJson.Quote(s ?? "");
    }
}
